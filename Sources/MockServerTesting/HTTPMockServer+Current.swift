import MockServer

extension HTTPMockServer {
    /// The stub server of the running test: the one the `.httpMockServer` trait started for the test
    /// (or for its suite), or that `withHTTPMockServer` runs its body with.
    ///
    /// ```swift
    /// @Test(.httpMockServer { server in server.stubRequest("GET", "/pets").andReturn(200).withBody("[]") })
    /// func pets() async throws {
    ///     let server = try HTTPMockServer.current
    ///     let (data, _) = try await URLSession.shared.data(from: server.url(for: "/pets"))
    ///     #expect(data == Data("[]".utf8))
    /// }
    /// ```
    ///
    /// It is a task-local: child tasks (`async let`, task groups) see it, a detached task does not.
    ///
    /// - Throws: outside such a test, an error that says which trait to add.
    public static var current: HTTPMockServer {
        get throws {
            guard let server = CurrentMock.http else {
                throw CurrentMock.Missing(getter: "HTTPMockServer.current", trait: ".httpMockServer { server in … }",
                                          helper: "withHTTPMockServer { server in … }")
            }
            return server
        }
    }
}
