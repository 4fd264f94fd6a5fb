import Foundation
import MockServer
import MockServerResponses
import Testing

@Test func aHandshakeThatIsReset() async throws {
    var tls = try TLSSettings.generated()
    tls.handshakeFault = .reset                     // or .hang, .alert; sendsCloseNotify = false truncates
    var configuration = MockServer.Configuration()
    configuration.tls = tls
    let server = try MockServer(script: BundledResponses.script(named: "http"), configuration: configuration)
    try await server.start()
    defer { server.stop() }

    // The client under test must report the failure, not hang or crash: curl exits 35.
    let curl = Process()
    curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
    curl.arguments = ["-s", "--insecure", "-o", "/dev/null", "https://127.0.0.1:\(server.port)/"]   // -s: no "curl: (35)" line
    try curl.run()
    curl.waitUntilExit()
    #expect(curl.terminationStatus == 35)
    #expect(server.transcript.entries.contains { "\($0.event)".contains("TLS fault: reset") })
}
