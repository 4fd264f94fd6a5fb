#if compiler(>=6.1)
import Foundation
import MockServer
import Testing

/// The traits that give a test (or a suite) its mock; see ``MockServer/Trait``.
extension Trait where Self == MockServer.Trait {
    /// A stub server for each test (or one for the suite): `setUp` adds its stubs and endpoints, and
    /// the test reads it as `HTTPMockServer.current`.
    ///
    /// ```swift
    /// @Test(.httpMockServer { server in
    ///     server.stubRequest("GET", "/pets").andReturn(200).withBody(#"["Rex"]"#)
    /// })
    /// func pets() async throws {
    ///     let (data, _) = try await URLSession.shared.data(from: try HTTPMockServer.current.url(for: "/pets"))
    ///     #expect(data == Data(#"["Rex"]"#.utf8))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - configuration: address, port, limits, conditions, logging, TLS.
    ///   - tls: TLS with a fresh test CA (`.implicit`: HTTPS); `nil` (the default) leaves
    ///     `configuration.tls` as it is. For your own identity or a certificate fault, set
    ///     `configuration.tls` instead.
    ///   - failOnUnexpectedRequest: whether requests no stub answered fail the test (the default).
    ///   - strict: whether unused stubs and requests out of a declared order fail it too.
    ///   - setUp: run once the server listens, before the test.
    public static func httpMockServer(
        configuration: MockServer.Configuration = .init(), tls: TLSSettings.Mode? = nil,
        failOnUnexpectedRequest: Bool = true, strict: Bool = false,
        _ setUp: @escaping @Sendable (HTTPMockServer) async throws -> Void = { _ in }
    ) -> Self {
        .http(configuration: configuration, tls: tls, failOnUnexpectedRequest: failOnUnexpectedRequest, strict: strict, setUp: setUp)
    }

    /// A stub server that answers from a mock-data folder of the test bundle (after any stub `setUp`
    /// adds), as `addMockData(named:in:allowsWildcards:)` does.
    ///
    /// ```swift
    /// @Test(.httpMockServer(mockData: "VOKMockData", in: .module))
    /// func me() async throws {
    ///     let (data, _) = try await URLSession.shared.data(from: try HTTPMockServer.current.url(for: "/v1/me"))
    ///     #expect(data == Data(#"{"name":"Ada"}"#.utf8))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - name: the folder's name among the bundle's resources (`resources: [.copy("VOKMockData")]`).
    ///   - bundle: the test target's bundle, `.module`.
    ///   - allowsWildcards: whether file names may use `*` for the query or body.
    ///   - configuration, tls, failOnUnexpectedRequest, strict, setUp: as in
    ///     ``httpMockServer(configuration:tls:failOnUnexpectedRequest:strict:_:)``.
    public static func httpMockServer(
        mockData name: String, in bundle: Bundle, allowsWildcards: Bool = false,
        configuration: MockServer.Configuration = .init(), tls: TLSSettings.Mode? = nil,
        failOnUnexpectedRequest: Bool = true, strict: Bool = false,
        _ setUp: @escaping @Sendable (HTTPMockServer) async throws -> Void = { _ in }
    ) -> Self {
        .http(configuration: configuration, tls: tls, failOnUnexpectedRequest: failOnUnexpectedRequest, strict: strict,
              load: { try $0.addMockData(named: name, in: bundle, allowsWildcards: allowsWildcards) }, setUp: setUp)
    }

    /// A stub server that answers from the mock-data folder at `folder`, as
    /// `addMockData(folder:allowsWildcards:)` does.
    ///
    /// ```swift
    /// @Test(.httpMockServer(mockData: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")))
    /// func fromFixtures() async throws { /* … */ }
    /// ```
    ///
    /// - Parameters:
    ///   - folder: the folder, read when the test starts.
    ///   - allowsWildcards: whether file names may use `*` for the query or body.
    ///   - configuration, tls, failOnUnexpectedRequest, strict, setUp: as in
    ///     ``httpMockServer(configuration:tls:failOnUnexpectedRequest:strict:_:)``.
    public static func httpMockServer(
        mockData folder: URL, allowsWildcards: Bool = false,
        configuration: MockServer.Configuration = .init(), tls: TLSSettings.Mode? = nil,
        failOnUnexpectedRequest: Bool = true, strict: Bool = false,
        _ setUp: @escaping @Sendable (HTTPMockServer) async throws -> Void = { _ in }
    ) -> Self {
        .http(configuration: configuration, tls: tls, failOnUnexpectedRequest: failOnUnexpectedRequest, strict: strict,
              load: { try $0.addMockData(folder: folder, allowsWildcards: allowsWildcards) }, setUp: setUp)
    }

    /// A stub server that serves a stub script's endpoints (`{"endpoints": […]}`): `NAME.json` in
    /// `bundle` (its top level or its `Responses` folder), or the bundled `endpoints`. Stubs `setUp`
    /// adds answer first.
    ///
    /// ```swift
    /// @Test(.httpMockServer(endpoints: "api", in: .module))
    /// func login() async throws { /* … */ }
    /// ```
    ///
    /// - Parameters:
    ///   - name: the file's name, with or without `.json`.
    ///   - bundle: the test target's bundle, `.module`; `nil` (the default) for the bundled ones only.
    ///   - configuration, tls, failOnUnexpectedRequest, strict, setUp: as in
    ///     ``httpMockServer(configuration:tls:failOnUnexpectedRequest:strict:_:)``.
    public static func httpMockServer(
        endpoints name: String, in bundle: Bundle? = nil,
        configuration: MockServer.Configuration = .init(), tls: TLSSettings.Mode? = nil,
        failOnUnexpectedRequest: Bool = true, strict: Bool = false,
        _ setUp: @escaping @Sendable (HTTPMockServer) async throws -> Void = { _ in }
    ) -> Self {
        .http(configuration: configuration, tls: tls, failOnUnexpectedRequest: failOnUnexpectedRequest, strict: strict,
              load: { try $0.addEndpoints(contentsOf: ScriptLoading.url(named: name, in: bundle)) }, setUp: setUp)
    }

    /// A stub server that serves the stub script at `file`, as `addEndpoints(contentsOf:)` does.
    ///
    /// ```swift
    /// @Test(.httpMockServer(endpoints: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("api.json")))
    /// func login() async throws { /* … */ }
    /// ```
    ///
    /// - Parameters:
    ///   - file: the stub script, read when the test starts.
    ///   - configuration, tls, failOnUnexpectedRequest, strict, setUp: as in
    ///     ``httpMockServer(configuration:tls:failOnUnexpectedRequest:strict:_:)``.
    public static func httpMockServer(
        endpoints file: URL,
        configuration: MockServer.Configuration = .init(), tls: TLSSettings.Mode? = nil,
        failOnUnexpectedRequest: Bool = true, strict: Bool = false,
        _ setUp: @escaping @Sendable (HTTPMockServer) async throws -> Void = { _ in }
    ) -> Self {
        .http(configuration: configuration, tls: tls, failOnUnexpectedRequest: failOnUnexpectedRequest, strict: strict,
              load: { try $0.addEndpoints(contentsOf: file) }, setUp: setUp)
    }

    /// A server answering with the response script `name` (`NAME.json` in `bundle`, its top level or
    /// its `Responses` folder, or a bundled one such as `ftp`), read as `MockServer.current`.
    ///
    /// ```swift
    /// @Test(.mockServer(responses: "ftp") { server in server.files = ["a.txt": Data("hi".utf8)] })
    /// func download() async throws {
    ///     let (data, _) = try await URLSession.shared.data(from: try MockServer.current.url(for: "a.txt"))
    ///     #expect(data == Data("hi".utf8))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - name: the script's name, with or without `.json`.
    ///   - bundle: the test target's bundle, `.module`; `nil` (the default) for the bundled ones only.
    ///   - set: the response set to start with.
    ///   - configuration: address, ports, limits, conditions, logging, TLS.
    ///   - tls: TLS with a fresh test CA: `.implicit` from the first byte (`ftps://`, HTTPS),
    ///     `.explicit` at the script's `«starttls»` (FTP's `AUTH TLS`); `nil` (the default) leaves
    ///     `configuration.tls` as it is.
    ///   - failOnUnexpectedInput: whether inputs no response matched fail the test (the default).
    ///   - setUp: run once the server listens, before the test (`server.files = …`).
    public static func mockServer(
        responses name: String, in bundle: Bundle? = nil, set: String = "default",
        configuration: MockServer.Configuration = .init(), tls: TLSSettings.Mode? = nil, failOnUnexpectedInput: Bool = true,
        _ setUp: @escaping @Sendable (MockServer) async throws -> Void = { _ in }
    ) -> Self {
        .script({ try ScriptLoading.script(named: name, in: bundle) }, set: set, configuration: configuration, tls: tls,
                failOnUnexpectedInput: failOnUnexpectedInput, setUp: setUp)
    }

    /// A server answering with `script`; see ``mockServer(responses:in:set:configuration:tls:failOnUnexpectedInput:_:)``.
    ///
    /// ```swift
    /// static let hello = try! ResponseScript(json: #"{"responses": {"hi": {"pattern": "^HI$", "commands": ["hello"]}}}"#)
    /// @Test(.mockServer(script: hello))
    /// func greets() async throws { /* … */ }
    /// ```
    public static func mockServer(
        script: ResponseScript, set: String = "default",
        configuration: MockServer.Configuration = .init(), tls: TLSSettings.Mode? = nil, failOnUnexpectedInput: Bool = true,
        _ setUp: @escaping @Sendable (MockServer) async throws -> Void = { _ in }
    ) -> Self {
        .script({ script }, set: set, configuration: configuration, tls: tls, failOnUnexpectedInput: failOnUnexpectedInput, setUp: setUp)
    }
}
#endif
