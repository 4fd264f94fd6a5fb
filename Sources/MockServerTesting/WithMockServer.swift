import Foundation
import MockServer
import Testing

/// Runs `body` with a started server answering with `script`, then stops it. In the body,
/// `MockServer.current` is that server too. With Swift 6.1 and later, the `.mockServer` trait does
/// the same for a whole test or suite.
///
/// Every parallel test gets its own server on its own ports. When the body ends, inputs that no
/// response matched fail the test with a report that lists them, offers a response entry to paste
/// for each, and shows the transcript, whether the body returned or threw (a client's error
/// usually follows from the unmatched input); an error the body throws is then rethrown with the
/// transcript (a failed `#require` and a cancelled test's error as they are, for Swift Testing to read).
///
/// ```swift
/// @Test func download() async throws {
///     try await withMockServer(script: BundledResponses.script(named: "ftp")) { server in
///         server.files = ["a.txt": Data("hi".utf8)]
///         let (data, _) = try await URLSession.shared.data(from: server.url(for: "a.txt"))
///         #expect(data == Data("hi".utf8))
///     }
/// }
/// ```
///
/// - Parameters:
///   - script: the responses.
///   - set: the set to start with.
///   - configuration: address, ports, limits, logging.
///   - failOnUnexpectedInput: whether unmatched inputs fail the test (the default).
///   - sourceLocation: where to report issues; the caller's by default.
///   - body: the test, given the running server.
@discardableResult
public func withMockServer<Result>(
    script: ResponseScript, set: String = "default", configuration: MockServer.Configuration = .init(),
    failOnUnexpectedInput: Bool = true, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: (MockServer) async throws -> Result
) async throws -> Result {
    try await withStartedServer(try MockServer(script: script, set: set, configuration: configuration),
                                start: { try await $0.start() }, stop: { await $0.stop() }, transcript: { $0.transcript.entries },
                                report: { reportUnexpectedInput(of: $0, if: failOnUnexpectedInput, at: sourceLocation) }) { server in
        try await CurrentMock.$script.withValue(server) { try await body(server) }
    }
}

/// Records the server's unexpected-input report as an issue, when asked to and there is one.
private func reportUnexpectedInput(of server: MockServer, if enabled: Bool, at sourceLocation: SourceLocation) {
    if enabled, let report = UnexpectedInputReport(server: server) {
        ReportCapture.record(report.description, at: sourceLocation)
    }
}

/// Runs `body` with a started server answering with the response file `name` (`NAME.json` in
/// `bundle`, such as your test target's `Bundle.module`, or a script bundled with MockServer such
/// as `ftp`), then stops it. See ``withMockServer(script:set:configuration:failOnUnexpectedInput:sourceLocation:_:)``.
@discardableResult
public func withMockServer<Result>(
    responses name: String, in bundle: Bundle? = nil, set: String = "default", configuration: MockServer.Configuration = .init(),
    failOnUnexpectedInput: Bool = true, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: (MockServer) async throws -> Result
) async throws -> Result {
    try await withMockServer(script: ScriptLoading.script(named: name, in: bundle), set: set, configuration: configuration,
                             failOnUnexpectedInput: failOnUnexpectedInput, sourceLocation: sourceLocation, body)
}
