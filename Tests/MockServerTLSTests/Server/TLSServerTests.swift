import Foundation
import Testing
import TestSupport
import MockServer

/// TLS on the main port, met by real clients: curl, Python's ssl and requests, openssl s_client.
@Suite("TLS", .offPool)
struct TLSServerTests {
    private static let http = """
        {"scheme": "http", "responses": {
            "hello": {"pattern": "^GET /hello ", "commands": [{"response": {"body": "hi over TLS\\n"}}]},
            "echo":  {"pattern": "^POST /echo ", "commands": [{"response": {"body": "$body"}}]}
        }}
        """

    private static let smtp = """
        {"scheme": "smtp", "responses": {
            "greet":    {"pattern": "«initial»", "commands": ["220 mock ESMTP\\r\\n"]},
            "ehlo":     {"pattern": "^EHLO", "commands": ["250-mock\\r\\n250 STARTTLS\\r\\n"]},
            "starttls": {"pattern": "^STARTTLS", "commands": ["220 Ready to start TLS\\r\\n", "«starttls»"]},
            "quit":     {"pattern": "^QUIT", "commands": ["221 bye\\r\\n", "«close»"]}
        }}
        """

    /// A started server for `script` with a generated identity, and its CA written to a file.
    private func start(_ script: String, mode: TLSSettings.Mode = .implicit) throws -> (MockServer, String) {
        var configuration = MockServer.Configuration()
        configuration.tls = try .generated(mode: mode)
        let server = try MockServer(script: ResponseScript(json: script), configuration: configuration)
        try server.start()
        let ca = try Tools.temporaryDirectory().appendingPathComponent("ca.pem").path
        try #require(configuration.tls?.identity.caCertificatePEM).write(toFile: ca, atomically: true, encoding: .utf8)
        return (server, ca)
    }

    private func handshakes(_ server: MockServer) -> [String] {
        server.transcript.entries.compactMap { entry in
            if case .note(let note) = entry.event, note.kind == "tls-handshake" { note.text } else { nil }
        }
    }

    @Test("HTTPS: curl trusts the generated CA, keeps the connection alive, and ALPN agrees on http/1.1")
    func curlHTTPS() throws {
        let (server, ca) = try start(Self.http)
        defer { server.stop() }
        let base = "https://127.0.0.1:\(server.port)"
        // --http1.1: curl offers only http/1.1 (it prefers h2, which the server offers first; HTTP2ServingTests).
        let result = try Tools.curl(["--http1.1", "--cacert", ca, "\(base)/hello", "\(base)/hello", "--next", "--http1.1", "--cacert", ca, "--data-binary", "posted", "\(base)/echo"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "hi over TLS\nhi over TLS\nposted")
        let done = handshakes(server)
        #expect(done.count == 1, "\(done)")
        #expect(done.first?.contains("alpn=http/1.1") == true, "\(done)")
        // By name too: the certificate names localhost.
        #expect(try Tools.curl(["--cacert", ca, "https://localhost:\(server.port)/hello"]).stdout == "hi over TLS\n")
    }

    @Test("stubs and endpoints over HTTPS: curl meets a Nocilla-style stub, a Voodoo-style endpoint and the unexpected-request report; url(for:) says https")
    func stubsOverTLS() throws {
        var configuration = MockServer.Configuration()
        configuration.tls = try .generated()
        let stubs = HTTPMockServer(configuration: configuration)
        stubs.stubRequest("GET", "/dogs.json").andReturn(200).withBody(#"[{"name":"Rex"}]"#)
        stubs.add(.GET, "/profile") { _, _ in .ok(json: ["name": "Ada"]) }
        try stubs.start()
        defer { stubs.stop() }
        let ca = try Tools.temporaryDirectory().appendingPathComponent("ca.pem").path
        try #require(configuration.tls?.identity.caCertificatePEM).write(toFile: ca, atomically: true, encoding: .utf8)
        #expect(stubs.url(for: "/dogs.json").absoluteString == "https://127.0.0.1:\(stubs.port)/dogs.json")
        let result = try Tools.curl(["--cacert", ca, stubs.url(for: "/dogs.json").absoluteString, "--next", "--cacert", ca, stubs.url(for: "/profile").absoluteString])
        #expect(result.stdout == #"[{"name":"Rex"}]{"name":"Ada"}"#, "\(result.stderr)")
        let unexpected = try Tools.curl(["--http1.1", "--cacert", ca, "-i", stubs.url(for: "/cats").absoluteString])
        #expect(unexpected.stdout.hasPrefix("HTTP/1.1 500") && unexpected.stdout.contains("X-MockServer: Unexpected Request"), "\(unexpected.stdout)")
    }

    @Test("a client that does not trust the CA fails its check, and the server records why and goes on serving")
    func untrusted() async throws {
        let (server, ca) = try start(Self.http)
        defer { server.stop() }
        let refused = try Tools.curl(["https://127.0.0.1:\(server.port)/hello"])
        #expect(refused.status == 60, "curl exit \(refused.status): \(refused.stderr)")
        let failure = try await server.transcript.wait { if case .note(let note) = $0.event { note.kind == "tls-failed" } else { false } }
        #expect("\(failure.event)".contains("unknown ca"), "\(failure)")
        #expect(try Tools.curl(["--cacert", ca, "https://127.0.0.1:\(server.port)/hello"]).stdout == "hi over TLS\n")
    }

    @Test("Python: ssl with the CA file, SNI in the transcript, requests and httpx with verify=, httpx refusing without it")
    func python() throws {
        let (server, ca) = try start(Self.http)
        defer { server.stop() }
        let result = try Tools.python("""
            import socket, ssl
            context = ssl.create_default_context(cafile="\(ca)")
            with socket.create_connection(("127.0.0.1", \(server.port)), timeout=10) as raw:
                with context.wrap_socket(raw, server_hostname="localhost") as tls:
                    tls.sendall(b"GET /hello HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n")
                    data = b""
                    while True:
                        chunk = tls.recv(4096)
                        if not chunk: break
                        data += chunk
                    print(tls.version(), data.split(b"\\r\\n\\r\\n", 1)[1].decode().strip())
            import requests, httpx
            print(requests.get("https://localhost:\(server.port)/hello", verify="\(ca)", timeout=10).text.strip())
            with httpx.Client(verify="\(ca)") as client:
                print(client.get("https://127.0.0.1:\(server.port)/hello").text.strip())
                print(client.post("https://127.0.0.1:\(server.port)/echo", content=b"x" * 100000).text == "x" * 100000)
            try:
                httpx.get("https://127.0.0.1:\(server.port)/hello")
            except httpx.ConnectError as error:
                print("untrusted:", "CERTIFICATE_VERIFY_FAILED" in str(error))
            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").map(String.init) == ["TLSv1.3 hi over TLS", "hi over TLS", "hi over TLS", "True", "untrusted: True"],
                "\(result.stdout)\(result.stderr)")
        #expect(handshakes(server).contains { $0.contains("sni=localhost") }, "\(handshakes(server))")
    }

    @Test("plain text, or garbage, to a TLS port is closed with a reason, and the server goes on serving")
    func badInput() async throws {
        let (server, ca) = try start(Self.http)
        defer { server.stop() }
        let result = try Tools.python("""
            import socket
            for payload in [b"GET /hello HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n", bytes(range(256)) * 4, b"\\x16\\x03\\x01\\x00\\x05hello"]:
                with socket.create_connection(("127.0.0.1", \(server.port)), timeout=10) as s:
                    s.sendall(payload)
                    data = s.recv(4096)
                    while data:
                        more = s.recv(4096)
                        if not more: break
                        data += more
                    print(len(data) < 64)
            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "True\nTrue\nTrue\n", "\(result.stdout)\(result.stderr)")
        let failures = server.transcript.entries.filter { entry in
            if case .closed(.failed(let reason)) = entry.event { reason.contains("TLS") } else { false }
        }
        #expect(failures.count == 3, "\(server.transcript.dump())")
        #expect(try Tools.curl(["--cacert", ca, "https://127.0.0.1:\(server.port)/hello"]).stdout == "hi over TLS\n")
    }

    @Test("STARTTLS: openssl s_client -starttls smtp, then the same script encrypted")
    func startTLS() async throws {
        let (server, ca) = try start(Self.smtp, mode: .explicit)
        defer { server.stop() }
        let result = try Tools.run("openssl", ["s_client", "-starttls", "smtp", "-connect", "127.0.0.1:\(server.port)", "-CAfile", ca,
                                               "-verify_return_error", "-quiet"], input: "EHLO after\r\nQUIT\r\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("250-mock\r\n250 STARTTLS\r\n221 bye\r\n"), "\(result.stdout.debugDescription)")
        let events = server.transcript.entries.map { "\($0.event)" }
        let handshake = try #require(events.firstIndex { $0.contains("TLS handshake done") }, "\(events)")
        let secondEhlo = try #require(events.lastIndex { $0.contains("EHLO after") }, "\(events)")
        #expect(handshake < secondEhlo)
    }

    @Test("«starttls» on a server without an identity is logged and skipped; an HTTP script cannot use it")
    func startTLSWithoutIdentity() throws {
        let server = try MockServer(script: ResponseScript(json: Self.smtp))
        try server.start()
        defer { server.stop() }
        let result = try Tools.python("""
            import socket
            with socket.create_connection(("127.0.0.1", \(server.port)), timeout=10) as s:
                f = s.makefile("rwb")
                f.readline()
                f.write(b"STARTTLS\\r\\n"); f.flush(); print(f.readline().decode().strip())
                f.write(b"QUIT\\r\\n"); f.flush(); print(f.readline().decode().strip())
            """)
        #expect(result.stdout == "220 Ready to start TLS\n221 bye\n", "\(result.stdout)\(result.stderr)")
        #expect(throws: ResponseFileError.self) {
            try ResponseScript(json: #"{"scheme": "http", "responses": {"a": {"pattern": "x", "commands": ["«starttls»"]}}}"#)
        }
    }
}
