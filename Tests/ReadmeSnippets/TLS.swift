import Foundation
import MockServer
import MockServerResponses
import Testing

@Test func httpsWithATestCA() async throws {
    var configuration = MockServer.Configuration()
    configuration.tls = try .generated()            // a fresh test CA, and a certificate for 127.0.0.1 and localhost
    let server = try MockServer(script: BundledResponses.script(named: "http"), configuration: configuration)
    try await server.start()
    defer { server.stop() }

    // Clients trust the CA: curl --cacert, Python's cafile=, lftp's ssl:ca-file.
    let ca = FileManager.default.temporaryDirectory.appendingPathComponent("mock-ca-\(UUID()).pem")
    try configuration.tls?.identity.caCertificatePEM?.write(to: ca, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: ca) }
    let curl = Process()
    curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
    curl.arguments = ["-sS", "-o", "/dev/null", "-u", "user:pass", "--cacert", ca.path, "https://127.0.0.1:\(server.port)/"]
    try curl.run()
    curl.waitUntilExit()
    #expect(curl.terminationStatus == 0)

    // The handshake is in the transcript: version, cipher, SNI, ALPN, resumption, client certificate.
    #expect(server.transcript.entries.contains { "\($0.event)".contains("TLS handshake done") })
}
