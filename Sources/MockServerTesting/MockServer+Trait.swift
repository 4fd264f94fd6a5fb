#if compiler(>=6.1)
import Foundation
import MockServer
import Testing

extension MockServer {
    /// A mock for each test, or one for a whole suite: the Swift Testing trait that
    /// `.httpMockServer { … }` and `.mockServer(responses:)` make.
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
    /// On a test, each run of it gets its own mock on its own port (each case of a parameterized test
    /// too, and they run in parallel); on a suite (`@Suite(.httpMockServer { … })`), one mock is started
    /// before the suite's first test and stopped after its last, and its tests share it. The trait
    /// starts the mock, runs the setup closure, runs the test with the mock as `HTTPMockServer.current`
    /// (or `MockServer.current`), stops it whatever happens, and then fails the test, at the line of
    /// its `@Test` (or `@Suite`), for what `withHTTPMockServer` and `withMockServer` fail it for:
    /// unexpected requests or inputs, errors of endpoint closures, and with `strict` unused stubs and
    /// requests out of a declared order. An error the test or the setup throws comes back with the
    /// transcript. It is those functions' code, run around the test.
    ///
    /// Before Swift 6.1, whose Testing library cannot wrap a test, use `withHTTPMockServer` and
    /// `withMockServer` in the test's body instead.
    public struct Trait: TestTrait, SuiteTrait, TestScoping {
        /// Runs `test` with a started mock bound to its task-local, reporting problems at `location`.
        typealias Scope = @Sendable (_ location: SourceLocation, _ test: @Sendable () async throws -> Void) async throws -> Void

        private let scope: Scope

        init(scope: @escaping Scope) {
            self.scope = scope
        }

        /// Runs the test (or, on a suite, all its tests) with the trait's mock; Swift Testing calls it.
        public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
            try await scope(test.sourceLocation, function)
        }

        /// A stub server's trait: `load` adds what the factory was given (mock data, endpoints), then
        /// `setUp` what the test adds, both after the server started.
        static func http(
            configuration: MockServer.Configuration, tls: TLSSettings.Mode?, failOnUnexpectedRequest: Bool, strict: Bool,
            load: @escaping @Sendable (HTTPMockServer) throws -> Void = { _ in },
            setUp: @escaping @Sendable (HTTPMockServer) async throws -> Void
        ) -> MockServer.Trait {
            Trait { location, test in
                try await withHTTPMockServer(configuration: withTLS(configuration, tls), failOnUnexpectedRequest: failOnUnexpectedRequest,
                                             strict: strict, sourceLocation: location) { server in
                    try load(server)
                    try await setUp(server)
                    try await test()
                }
            }
        }

        /// A script server's trait, with the script `load` reads when the test starts.
        static func script(
            _ load: @escaping @Sendable () throws -> ResponseScript, set: String, configuration: MockServer.Configuration,
            tls: TLSSettings.Mode?, failOnUnexpectedInput: Bool,
            setUp: @escaping @Sendable (MockServer) async throws -> Void
        ) -> MockServer.Trait {
            Trait { location, test in
                try await withMockServer(script: load(), set: set, configuration: withTLS(configuration, tls),
                                         failOnUnexpectedInput: failOnUnexpectedInput, sourceLocation: location) { server in
                    try await setUp(server)
                    try await test()
                }
            }
        }

        /// `configuration` with a freshly generated test CA and certificate when `tls` asks for TLS.
        private static func withTLS(_ configuration: MockServer.Configuration, _ tls: TLSSettings.Mode?) throws -> MockServer.Configuration {
            guard let tls else { return configuration }
            var configuration = configuration
            configuration.tls = try .generated(mode: tls)
            return configuration
        }
    }
}
#endif
