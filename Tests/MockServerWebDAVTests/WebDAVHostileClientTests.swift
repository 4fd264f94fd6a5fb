import Foundation
import MockServerResponses
import Testing
import TestSupport
import MockServer

/// Hostile WebDAV requests over real sockets against the bundled webdav.json: each answered on its
/// connection, the server serving on.
@Suite("WebDAV: hostile requests from real clients", .offPool)
struct WebDAVHostileClientTests {
    private func dav() throws -> MockServer {
        let server = try MockServer(script: BundledResponses.script(named: "webdav"))
        try server.start()
        return server
    }

    /// A PROPFIND body with `levels` nested `<D:prop>` elements inside its `<D:propfind>`.
    private func propfind(_ levels: Int) -> String {
        "<?xml version=\"1.0\"?>\n<D:propfind xmlns:D=\"DAV:\">" + String(repeating: "<D:prop>", count: levels - 1)
            + String(repeating: "</D:prop>", count: levels - 1) + "</D:propfind>"
    }

    @Test("curl: a PROPFIND nested 100,000 and 300 deep is 400 naming the limit, and the next connection is served; 256 deep is read",
          .enabled(if: Tools.hasCurl))
    func deepPropfind() throws {
        let server = try dav()
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/"
        for levels in [100_000, 300, 257] {
            let result = try Tools.curl(["-u", "user:pass", "-X", "PROPFIND", "-H", "Depth: 0", "--data-binary", "@-", "-w", "\n%{http_code}", url],
                                        input: propfind(levels))
            #expect(result.stdout == "the PROPFIND body is refused: XML nesting deeper than the limit of 256 elements (line 2)\n\n400", "\(levels): \(result.stderr)")
            let next = try Tools.curl(["-u", "user:pass", "-X", "PROPFIND", "-H", "Depth: 0", "-o", "/dev/null", "-w", "%{http_code}", url])
            #expect(next.stdout == "207", "after \(levels): \(next.stderr)")
        }
        let deepest = try Tools.curl(["-u", "user:pass", "-X", "PROPFIND", "-H", "Depth: 0", "--data-binary", "@-", "-w", "\n%{http_code}", url],
                                     input: propfind(256))
        #expect(deepest.stdout.hasSuffix("</D:multistatus>\n\n207"), "\(deepest.stdout.suffix(200))")
    }

    @Test("Python raw socket: a 100,000-deep PROPFIND answered 400 on its own connection, which then serves a GET", .enabled(if: Tools.hasPython))
    func deepPropfindRawSocket() throws {
        let server = try dav()
        defer { server.stop() }
        let result = try Tools.python("""
            import socket, base64
            auth = "Authorization: Basic " + base64.b64encode(b"user:pass").decode() + "\\r\\n"
            body = ('<D:propfind xmlns:D="DAV:">' + "<D:prop>" * 99999 + "</D:prop>" * 99999 + "</D:propfind>").encode()
            s = socket.create_connection(("127.0.0.1", \(server.port)), timeout=20)
            s.sendall(("PROPFIND / HTTP/1.1\\r\\nHost: h\\r\\n" + auth + "Depth: 0\\r\\nContent-Length: %d\\r\\n\\r\\n" % len(body)).encode() + body)
            s.sendall(("GET /file.txt HTTP/1.1\\r\\nHost: h\\r\\n" + auth + "Connection: close\\r\\n\\r\\n").encode())
            data = b""
            while True:
                chunk = s.recv(65536)
                if not chunk: break
                data += chunk
            text = data.decode()
            print(text.split("\\r\\n")[0])
            print("limit named:", "XML nesting deeper than the limit of 256 elements" in text)
            print(text.split("\\r\\n\\r\\n")[-1], end="")
            """)
        #expect(result.stdout == "HTTP/1.1 400 Bad Request\nlimit named: True\nHello from MockServer!\n", "\(result.stdout)\(result.stderr)")
    }

    @Test("Python raw socket: PROPFIND, PROPPATCH and LOCK bodies with a byte that is not UTF-8 in a name are 400 naming it, and the server serves on (the process trapped in Foundation's XMLParser)",
          .enabled(if: Tools.hasPython))
    func notUTF8RawSocket() throws {
        let server = try dav()
        defer { server.stop() }
        let result = try Tools.python("""
            import socket, base64
            auth = "Authorization: Basic " + base64.b64encode(b"user:pass").decode() + "\\r\\n"
            def send(method, body):
                s = socket.create_connection(("127.0.0.1", \(server.port)), timeout=20)
                head = method + " /file.txt HTTP/1.1\\r\\nHost: h\\r\\n" + auth + "Depth: 0\\r\\nConnection: close\\r\\nContent-Length: %d\\r\\n\\r\\n"
                s.sendall((head % len(body)).encode() + body)
                data = b""
                while True:
                    chunk = s.recv(65536)
                    if not chunk: break
                    data += chunk
                text = data.decode("utf-8", "replace")
                print(method, text.split("\\r\\n")[0], "not UTF-8" in text and "byte 0xff" in text)
            send("PROPFIND", b"<D:propfind xmlns:D='DAV:'><D:prop><D:\\xff/></D:prop></D:propfind>")
            send("PROPPATCH", b"<D:propertyupdate xmlns:D='DAV:'><D:set><D:prop><Z:\\xffa xmlns:Z='urn:z'>v</Z:\\xffa></D:prop></D:set></D:propertyupdate>")
            send("LOCK", b"<D:lockinfo xmlns:D='DAV:'><D:\\xff/></D:lockinfo>")
            send("GET", b"")
            """)
        #expect(result.stdout == "PROPFIND HTTP/1.1 400 Bad Request True\nPROPPATCH HTTP/1.1 400 Bad Request True\nLOCK HTTP/1.1 400 Bad Request True\nGET HTTP/1.1 200 OK False\n",
                "\(result.stdout)\(result.stderr)")
    }

    @Test("curl: COPY and MOVE to another host, port or scheme are 502 and change nothing; the server's own URI works", .enabled(if: Tools.hasCurl))
    func foreignDestination() throws {
        let server = try dav()
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)"
        let before = server.files
        for method in ["COPY", "MOVE"] {
            for destination in ["http://example.com/stolen.txt", "http://127.0.0.1:\(Int(server.port) + 1)/stolen.txt", "ftp://127.0.0.1:\(server.port)/stolen.txt"] {
                let result = try Tools.curl(["-u", "user:pass", "-X", method, "-H", "Destination: \(destination)", "-w", "\n%{http_code}", "\(url)/file.txt"])
                #expect(result.stdout.hasPrefix("the Destination \(destination) is on another server"), "\(result.stdout)")
                #expect(result.stdout.hasSuffix("\n502"), "\(result.stdout)")
            }
        }
        #expect(server.files == before)
        let own = try Tools.curl(["-u", "user:pass", "-X", "MOVE", "-H", "Destination: \(url)/moved.txt", "-o", "/dev/null", "-w", "%{http_code}", "\(url)/file.txt"])
        #expect(own.stdout == "201")
        #expect(server.files["/moved.txt"] == before["/file.txt"] && server.files["/file.txt"] == nil)
    }
}
