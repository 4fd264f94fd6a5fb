import MockServer
import Testing

/// The lifecycle both `with…MockServer` helpers (and so the traits) share: start the server, run the
/// test, stop the server whatever happens, report, and give a test's error the transcript.
///
/// Some errors are rethrown as they are: a timeout (it carries its own transcript), a failed
/// `#require` (Swift Testing recorded it already, and would record the wrapper as a second issue),
/// and any error of a cancelled task (`Test.cancel()`, a time limit: Swift Testing reports a
/// cancellation, not a failure, only when it sees the error it threw).
func withStartedServer<Server: Sendable, Result>(
    _ server: Server,
    start: (Server) async throws -> Void,
    stop: (Server) async -> Void,
    transcript: (Server) -> [Transcript.Entry],
    report: (Server) -> Void,
    _ body: (Server) async throws -> Result
) async throws -> Result {
    try await start(server)
    let result: Result
    do {
        result = try await body(server)
    } catch {
        await stop(server)
        report(server)
        if error is Transcript.Timeout || error is ExpectationFailedError || error is CancellationError || Task.isCancelled { throw error }
        throw MockServerTestFailure(underlying: error, transcript: transcript(server))
    }
    await stop(server)
    report(server)
    return result
}
