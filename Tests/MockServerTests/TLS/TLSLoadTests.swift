import Foundation
import Testing
import TestSupport
@testable import MockServer
@testable import MockServerTLS

/// TLS under split records and under load: the server reads ciphertext in pieces of any size, and
/// many handshakes at once leave nothing behind.
@Suite("TLS under load", .serialized)
struct TLSLoadTests {
    private static let http = """
        {"scheme": "http", "responses": {"echo": {"pattern": "^POST ", "commands": [{"response": {"body": "$body"}}]},
                                         "hello": {"pattern": "^GET ", "commands": [{"response": {"body": "hi\\n"}}]}}}
        """

    private func start(_ tls: TLSConfiguration) throws -> (MockServer, String) {
        var configuration = MockServer.Configuration()
        configuration.tls = tls
        let server = try MockServer(script: ResponseScript(json: Self.http), configuration: configuration)
        try server.start()
        let ca = try Tools.temporaryDirectory().appendingPathComponent("ca.pem").path
        try #require(tls.identity.caCertificatePEM).write(toFile: ca, atomically: true, encoding: .utf8)
        return (server, ca)
    }

    @Test("records taken from the socket one byte at a time: handshake, a 200 KB body both ways, keep-alive")
    func oneByteAtATime() throws {
        var tls = try TLSConfiguration.generated()
        tls.ciphertextReadLimit = 1
        let (server, ca) = try start(tls)
        defer { server.stop() }
        let body = try Tools.temporaryDirectory().appendingPathComponent("body.bin")
        try Tools.randomBytes(200_000, seed: 7).write(to: body)
        let base = "https://127.0.0.1:\(server.port)"
        let result = try Tools.curl(maxTime: 60, ["--cacert", ca, "--data-binary", "@\(body.path)", "-o", "/dev/null", "-w", "%{size_download}\n", "\(base)/echo",
                                                  "--next", "--cacert", ca, "\(base)/hello"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "200000\nhi\n", "\(result.stdout)")
    }

    @Test("1,000 TLS connections at once: every one answered, then no connection or descriptor left open")
    func thousandConnections() async throws {
        Tools.raiseDescriptorLimit(to: 4096)
        let (server, ca) = try start(try .generated())
        defer { server.stop() }
        // Once first, so that what running a program keeps open (Dispatch's own descriptors) is
        // counted before too.
        _ = try Tools.python("pass")
        let before = ProcessResources.openDescriptorCount()
        let result = try Tools.python("""
            import asyncio, ssl
            context = ssl.create_default_context(cafile="\(ca)")
            async def one():
                reader, writer = await asyncio.open_connection("127.0.0.1", \(server.port), ssl=context, server_hostname="localhost")
                writer.write(b"GET / HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n")
                data = await reader.read()
                writer.close()
                return data.endswith(b"hi\\n")
            async def main():
                results = await asyncio.gather(*[one() for _ in range(1000)], return_exceptions=True)
                print(sum(1 for r in results if r is True), [repr(r) for r in results if r is not True][:3])
            asyncio.run(main())
            """, timeout: 120)
        #expect(result.stdout == "1000 []\n", "\(result.stdout)\(result.stderr)")
        try await server.waitForConnectionsClosed(timeout: .seconds(30))
        #expect(server.openConnectionCount == 0)
        if let before, let after = ProcessResources.openDescriptorCount() {
            // Other suites open and close many descriptors in this process meanwhile (hundreds, under
            // load), so the count moves; a leak of one per connection would add 1,000.
            #expect(after <= before + 300, "descriptors: \(before) before, \(after) after")
        }
        // Exactly: a server socket whose descriptor leaked stays in CLOSE_WAIT once its client has gone.
        if let table = try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8) {
            let port = String(format: "%04X", server.port)
            let leaked = table.split(separator: "\n").dropFirst().filter { line in
                let fields = line.split(separator: " ")
                return fields.count > 3 && fields[1].hasSuffix(":" + port) && fields[3] == "08"
            }
            #expect(leaked.isEmpty, "\(leaked.count) server sockets left in CLOSE_WAIT")
        }
    }
}
