import Foundation
import MockServer
import Testing

/// Runs `body` with a started ``HTTPMockServer`` (add stubs and endpoints in the body), then stops it.
///
/// Every request that no stub matched fails the test, at the caller's file and line, with the text
/// its 500 showed: the request, the `stubRequest` line that answers it, and the nearest stub with
/// the part that differed. So does every error an endpoint closure threw. Both are reported whether
/// the body returned or threw; an error the body throws is then rethrown with the transcript.
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
///   - sourceLocation: where to report issues; the caller's by default.
///   - body: the test, given the running server.
public func withHTTPMockServer<Result>(
    configuration: MockServer.Configuration = .init(), failOnUnexpectedRequest: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: (HTTPMockServer) async throws -> Result
) async throws -> Result {
    try await withStartedServer(HTTPMockServer(configuration: configuration),
                                start: { try await $0.start() }, stop: { await $0.stop() }, transcript: { $0.transcript.entries },
                                report: { reportProblems(of: $0, unexpected: failOnUnexpectedRequest, at: sourceLocation) }, body)
}

/// Records each unexpected request's report (when asked to) and each closure's error as an issue.
private func reportProblems(of server: HTTPMockServer, unexpected: Bool, at sourceLocation: SourceLocation) {
    if unexpected {
        for report in server.unexpectedRequestReports {
            Issue.record(Comment(rawValue: report.text), sourceLocation: sourceLocation)
        }
    }
    for failure in server.handlerFailures {
        Issue.record(Comment(rawValue: "MockServer: an endpoint closure threw (its request got a 500): \(failure)"), sourceLocation: sourceLocation)
    }
}
