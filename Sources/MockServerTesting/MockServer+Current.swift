import MockServer

extension MockServer {
    /// The script server of the running test: the one the `.mockServer` trait started for the test
    /// (or for its suite), or that `withMockServer` runs its body with.
    ///
    /// ```swift
    /// @Test(.mockServer(responses: "ftp") { server in server.files = ["a.txt": Data("hi".utf8)] })
    /// func download() async throws {
    ///     let server = try MockServer.current
    ///     let (data, _) = try await URLSession.shared.data(from: server.url(for: "a.txt"))
    ///     #expect(data == Data("hi".utf8))
    /// }
    /// ```
    ///
    /// It is a task-local: child tasks (`async let`, task groups) see it, a detached task does not.
    ///
    /// - Throws: outside such a test, an error that says which trait to add.
    public static var current: MockServer {
        get throws {
            guard let server = CurrentMock.script else {
                throw CurrentMock.Missing(getter: "MockServer.current", trait: #".mockServer(responses: "NAME", in: .module)"#,
                                          helper: "withMockServer(responses:) { server in … }")
            }
            return server
        }
    }
}
