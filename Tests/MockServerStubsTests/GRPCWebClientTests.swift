import Foundation
import Testing
import TestSupport
import MockServer

/// gRPC-Web answers from an endpoints file's `"grpc"` answers, read by real clients: sonora (a
/// Python gRPC-Web client), curl for the raw bytes over HTTP/1.1 and HTTP/2, and a page in headless
/// Chromium calling with `fetch()` from another origin, through the CORS preflight.
@Suite("gRPC-Web clients", .offPool)
struct GRPCWebClientTests {
    static let endpoints = #"""
        { "endpoints": [
            { "api": "post /shop.Items/Get", "response": { "grpc": { "messages": [ { "hex": "08 07" } ] } } },
            { "api": "post /shop.Items/Watch", "response": { "grpc": { "messages": [
                { "base64": "CAE=" }, { "hex": "08 02", "delay": 0.05 }, { "hex": "08 03", "delay": 5 } ] } } },
            { "api": "post /shop.Items/Delete", "response": { "grpc": { "status": 7, "message": "not yours: 100% sure" } } },
            { "api": "options /shop.Own/Get", "response": { "status": 200, "headers": { "X-Own": "yes" } } },
            { "api": "post /shop.Own/Get", "response": { "grpc": { "messages": [ { "hex": "08 01" } ] } } },
            { "api": "post /plain", "response": { "body": "plain" } }
        ] }
        """#

    static func started() async throws -> HTTPMockServer {
        let server = HTTPMockServer()
        try server.addEndpoints(json: Array(endpoints.utf8))
        try await server.start()
        return server
    }

    @Test("sonora: unary and server-streaming calls get the messages and OK; an error its code and unescaped message; grpc-timeout DEADLINE_EXCEEDED after the messages before it",
          .enabled(if: Tools.hasPythonModule("sonora")))
    func sonora() async throws {
        let server = try await Self.started()
        defer { server.stop() }
        let result = try Tools.python("""
            import grpc, sonora.client
            same = lambda data: data
            with sonora.client.insecure_web_channel("http://127.0.0.1:\(server.port)") as channel:
                print("unary", channel.unary_unary("/shop.Items/Get", same, same)(b"\\x08\\x2a").hex())
                got = []
                try:
                    for message in channel.unary_stream("/shop.Items/Watch", same, same)(b"", timeout=1):
                        got.append(message.hex())
                except grpc.RpcError as error:
                    print("stream", got, error.code())
                try:
                    channel.unary_unary("/shop.Items/Delete", same, same)(b"")
                except grpc.RpcError as error:
                    print("error", error.code(), error.details())
            """)
        #expect(result.stdout == """
            unary 0807
            stream ['0801', '0802'] StatusCode.DEADLINE_EXCEEDED
            error StatusCode.PERMISSION_DENIED not yours: 100% sure

            """, "\(result.stdout)\(result.stderr)")
        // sonora sends application/grpc-web+proto: its message is in the transcript.
        let notes = server.transcript.entries.compactMap { entry -> String? in if case .note(let note) = entry.event { note.text } else { nil } }
        #expect(notes.first == "<- gRPC message 1, 2 bytes: 082a", "\(notes)")
    }

    @Test("curl: -text in and out over HTTP/1.1 and HTTP/2, each chunk padded base64; an error is 200 with the trailer frame; the transcript decodes the text",
          .enabled(if: Tools.hasCurl))
    func curlBytes() async throws {
        let server = try await Self.started()
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)"
        // Two separately padded pieces: two messages.
        let body = "AAAAAAIIKg==AAAAAAEB"
        let text = try Tools.curl(["-s", "-i", "--data-binary", body, "-H", "Content-Type: application/grpc-web-text", url + "/shop.Items/Get"])
        #expect(text.stdout.hasPrefix("HTTP/1.1 200 OK\r\ncontent-type: application/grpc-web-text\r\n"), "\(text.stdout)")
        #expect(text.stdout.hasSuffix("\r\n\r\nAAAAAAIIBw==gAAAAA9ncnBjLXN0YXR1czowDQo="), "\(text.stdout)")
        // The status is in the body's trailer frame, not in the headers.
        #expect(text.stdout.components(separatedBy: "\r\n\r\n").first?.lowercased().contains("grpc-status") == false, "\(text.stdout)")
        let http2 = try Tools.curl(["-s", "--http2-prior-knowledge", "--data-binary", body, "-H", "Content-Type: application/grpc-web-text+proto", url + "/shop.Items/Watch",
                                    "-H", "grpc-timeout: 300m", "-w", "\n%{http_version} %{content_type}"])
        #expect(http2.stdout == "AAAAAAIIAQ==AAAAAAIIAg==gAAAAC9ncnBjLXN0YXR1czo0DQpncnBjLW1lc3NhZ2U6ZGVhZGxpbmUgZXhjZWVkZWQNCg==\n2 application/grpc-web-text+proto",
                "\(http2.stdout)")
        // The binary body (its flag byte is not UTF-8) read from a file.
        let folder = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let saved = folder.appendingPathComponent("answer")
        let error = try Tools.curl(["-s", "-o", saved.path, "-w", "%{http_code}", "--data-binary", "", "-H", "Content-Type: application/grpc-web", url + "/shop.Items/Delete"])
        #expect(error.stdout == "200")
        #expect(try Array(Data(contentsOf: saved)) == [0x80, 0, 0, 0, 52] + Array("grpc-status:7\r\ngrpc-message:not yours: 100%25 sure\r\n".utf8))
        let notes = server.transcript.entries.compactMap { entry -> String? in if case .note(let note) = entry.event { note.text } else { nil } }
        #expect(Array(notes.prefix(2)) == ["<- gRPC message 1, 2 bytes: 082a", "<- gRPC message 2, 1 bytes: 01"], "\(notes)")
    }

    @Test("preflights: a gRPC path's gets 204 over HTTP/1.1 and HTTP/2; a user's OPTIONS endpoint wins; another path's stays unexpected",
          .enabled(if: Tools.hasCurl))
    func preflights() async throws {
        let server = try await Self.started()
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)"
        let asked = ["-X", "OPTIONS", "-H", "Origin: http://127.0.0.1:9", "-H", "Access-Control-Request-Method: POST"]
        let grpc = try Tools.curl(["-s", "-i"] + asked + ["-H", "Access-Control-Request-Headers: content-type,x-grpc-web,x-user-agent,grpc-timeout", url + "/shop.Items/Get"])
        #expect(grpc.stdout == """
            HTTP/1.1 204 No Content\r
            Access-Control-Allow-Origin: http://127.0.0.1:9\r
            Access-Control-Allow-Methods: POST\r
            Access-Control-Allow-Headers: content-type,x-grpc-web,x-user-agent,grpc-timeout\r
            Access-Control-Max-Age: 86400\r
            Vary: Origin, Access-Control-Request-Headers\r
            \r

            """, "\(grpc.stdout)")
        let http2 = try Tools.curl(["-s", "-i", "--http2-prior-knowledge"] + asked + [url + "/shop.Items/Delete"])
        #expect(http2.stdout.hasPrefix("HTTP/2 204 \r\naccess-control-allow-origin: http://127.0.0.1:9\r\n"), "\(http2.stdout)")
        // A Swift stub's gRPC answer counts too.
        server.stubRequest("POST", "/swift.Items/Get").andReturnGRPC([Data([0x08, 0x05])])
        let stub = try Tools.curl(["-s", "-o", "/dev/null", "-w", "%{http_code}"] + asked + [url + "/swift.Items/Get"])
        #expect(stub.stdout == "204")
        let own = try Tools.curl(["-s", "-i"] + asked + [url + "/shop.Own/Get"])
        #expect(own.stdout.hasPrefix("HTTP/1.1 200 OK\r\nX-Own: yes\r\n"), "\(own.stdout)")
        let plain = try Tools.curl(["-s", "-o", "/dev/null", "-w", "%{http_code}"] + asked + [url + "/plain"])
        #expect(plain.stdout == "500")
        // A plain OPTIONS (no Access-Control-Request-Method) is no preflight.
        let bare = try Tools.curl(["-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "OPTIONS", url + "/shop.Items/Get"])
        #expect(bare.stdout == "500")
        let names = server.transcript.entries.compactMap { entry -> String? in if case .input(_, let name) = entry.event { name } else { nil } }
        #expect(names.filter { $0 == "gRPC-Web CORS preflight" }.count == 3, "\(names)")
    }

    static let hasChromium = Tools.path(of: "chromium") != nil

    @Test("chromium --headless: a page on another origin calls with fetch() and grpc-web-text, through the preflight, and reads messages and statuses from the body",
          .enabled(if: hasChromium))
    func browser() async throws {
        let server = try await Self.started()
        defer { server.stop() }
        let pages = HTTPMockServer()
        pages.stubRequest("GET", "/page.html").andReturn(200).withHeaders(["Content-Type": "text/html; charset=utf-8"]).withBody(Self.page(calling: server.port))
        try await pages.start()
        defer { pages.stop() }
        let profile = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: profile) }
        let result = try Tools.run("chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--user-data-dir=\(profile.path)",
                                                "--virtual-time-budget=20000", "--dump-dom", "http://127.0.0.1:\(pages.port)/page.html"], timeout: 90)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("""
            <pre id="out">/shop.Items/Get: 200 application/grpc-web-text message 0807 | trailers grpc-status:0
            /shop.Items/Delete: 200 application/grpc-web-text trailers grpc-status:7 grpc-message:not yours: 100%25 sure</pre>
            """), "\(result.stdout)")
        let names = server.transcript.entries.compactMap { entry -> String? in if case .input(_, let name) = entry.event { name } else { nil } }
        #expect(names.contains("gRPC-Web CORS preflight"), "\(names)")
    }

    /// A page whose script calls `/shop.Items/Get` and `/shop.Items/Delete` on `port` as a gRPC-Web
    /// client does (custom fields, so the browser asks a preflight first), and writes each answer's
    /// status, content type and frames into `#out`.
    static func page(calling port: UInt16) -> String {
        #"""
        <!doctype html><html><body><pre id="out">waiting</pre><script>
        function hex(bytes) { return Array.from(bytes, b => b.toString(16).padStart(2, "0")).join(""); }
        function frames(text) {
          // Separately padded base64 pieces end to end: decoded 4 characters at a time.
          const bytes = [];
          for (let i = 0; i < text.length; i += 4) bytes.push(...Array.from(atob(text.slice(i, i + 4)), c => c.charCodeAt(0)));
          const out = [];
          for (let i = 0; i < bytes.length;) {
            const n = (bytes[i + 1] << 24 | bytes[i + 2] << 16 | bytes[i + 3] << 8 | bytes[i + 4]) >>> 0;
            const body = bytes.slice(i + 5, i + 5 + n);
            out.push(bytes[i] & 0x80 ? "trailers " + String.fromCharCode(...body).trim().split("\r\n").join(" ") : "message " + hex(body));
            i += 5 + n;
          }
          return out;
        }
        async function call(path) {
          const response = await fetch("http://127.0.0.1:\#(port)" + path, { method: "POST",
            headers: { "content-type": "application/grpc-web-text", "x-grpc-web": "1", "x-user-agent": "grpc-web-javascript/0.1", "grpc-timeout": "5S" },
            body: btoa(String.fromCharCode(0, 0, 0, 0, 2, 8, 42)) });
          return path + ": " + response.status + " " + response.headers.get("content-type") + " " + frames(await response.text()).join(" | ");
        }
        (async () => {
          try { document.getElementById("out").textContent = [await call("/shop.Items/Get"), await call("/shop.Items/Delete")].join("\n"); }
          catch (e) { document.getElementById("out").textContent = "failed: " + e; }
        })();
        </script></body></html>
        """#
    }
}
