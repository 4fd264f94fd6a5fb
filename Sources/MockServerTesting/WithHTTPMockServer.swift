import Foundation
import MockServer
import Testing

/// Runs `body` with a started ``HTTPMockServer`` (add stubs and endpoints in the body), then stops it.
/// In the body, `HTTPMockServer.current` is that server too. With Swift 6.1 and later, the
/// `.httpMockServer` trait does the same for a whole test or suite.
///
/// Every request that no stub matched fails the test, at the caller's file and line, with the text
/// its 500 showed: the request, the `stubRequest` line that answers it, and the nearest stub with
/// the part that differed. So does every error an endpoint closure threw. Both are reported whether
/// the body returned or threw; an error the body throws is then rethrown with the transcript (a
/// failed `#require` and a cancelled test's error as they are, for Swift Testing to read).
///
/// With `strict`, the test also fails for every stub that answered no request and for every
/// request that arrived out of an order declared with `server.inOrder { … }`
/// (``HTTPMockServer/strictVerificationReports``):
///
/// ```swift
/// try await withHTTPMockServer(strict: true) { server in
///     server.inOrder {
///         server.stubRequest("POST", "/login").andReturn(200)
///         server.stubRequest("GET", "/items").andReturn(200).withBody("[]")
///     }
///     // log in, then list the items: anything else fails the test
/// }
/// ```
///
/// ```swift
/// @Test func profile() async throws {
///     try await withHTTPMockServer { server in
///         server.add(.GET, "/profile") { _, _ in .ok(json: ["name": "Ada"]) }
///         let (data, _) = try await URLSession.shared.data(from: server.url(for: "/profile"))
///         #expect(data == Data(#"{"name":"Ada"}"#.utf8))
///     }
/// }
/// ```
///
/// - Parameters:
///   - configuration: address, port, limits, logging.
///   - failOnUnexpectedRequest: whether unexpected requests fail the test (the default).
///   - strict: whether unused stubs and requests out of a declared order fail the test too.
///   - sourceLocation: where to report issues; the caller's by default.
///   - body: the test, given the running server.
@discardableResult
public func withHTTPMockServer<Result>(
    configuration: MockServer.Configuration = .init(), failOnUnexpectedRequest: Bool = true, strict: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: (HTTPMockServer) async throws -> Result
) async throws -> Result {
    try await withStartedServer(HTTPMockServer(configuration: configuration),
                                start: { try await $0.start() }, stop: { await $0.stop() }, transcript: { $0.transcript.entries },
                                report: { reportProblems(of: $0, unexpected: failOnUnexpectedRequest, strict: strict, at: sourceLocation) }) { server in
        try await CurrentMock.$http.withValue(server) { try await body(server) }
    }
}

/// Records each problem ``StubServerProblems`` finds as an issue.
private func reportProblems(of server: HTTPMockServer, unexpected: Bool, strict: Bool, at sourceLocation: SourceLocation) {
    for problem in StubServerProblems.reports(of: server, unexpected: unexpected, strict: strict) {
        ReportCapture.record(problem, at: sourceLocation)
    }
}
