import MockServer

/// The lifecycle both `with…MockServer` helpers share: start the server, run the test, stop the
/// server whatever happens, report, and give a test's error the transcript (a timeout carries its own).
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
        if error is Transcript.Timeout { throw error }
        throw MockServerTestFailure(underlying: error, transcript: transcript(server))
    }
    await stop(server)
    report(server)
    return result
}
