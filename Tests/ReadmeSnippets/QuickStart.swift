import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import MockServerResponses
import Testing

@Test func quickStart() async throws {
    // A fake FTP server from the bundled script, on a port the system picks.
    let server = try MockServer(script: BundledResponses.script(named: "ftp"))
    server.files = ["report.csv": Data("id,name\n1,Ada\n".utf8)]  // FTP (and WebDAV) serve them
    try await server.start()                       // both ports are bound when this returns
    defer { server.stop() }                        // closes everything; idempotent

    let url = server.url(for: "report.csv")        // ftp://127.0.0.1:PORT/report.csv
    let (data, _) = try await URLSession(configuration: .ephemeral).data(from: url)
    #expect(data == Data("id,name\n1,Ada\n".utf8))

    // Wait on events, never sleep: the first input (past or future) that matches.
    try await server.transcript.waitForInput(matching: "^RETR report\\.csv")
    #expect(server.transcript.unmatched.isEmpty)

    // Switch every connection to a failure set mid-test.
    try server.useResponseSet("stor denied")
}
