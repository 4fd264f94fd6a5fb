import Foundation
import Testing
import TestSupport
import MockServer

/// HTTP/1.1's request limits (issue 48): the longest body taken and the time a request head may
/// take, each with a default, a setting and a refusal that names it; tried with a raw-socket client.
@Suite("HTTP/1.1 request limits: body size (413) and head timeout (408)", .offPool)
struct HTTPRequestLimitsTests {
    /// A raw client: sends a request announcing (or chunking) `argv[2]` body bytes and prints the
    /// status line, and the body's last line.
    private static let uploader = """
        import socket, sys
        port, size, mode = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
        s = socket.create_connection(("127.0.0.1", port)); s.settimeout(10)
        if mode == "length":
            s.sendall(b"POST /up HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\nContent-Length: %d\\r\\n\\r\\n" % size)
            try: s.sendall(b"x" * size)
            except OSError: pass
        else:
            s.sendall(b"POST /up HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n")
            try:
                left = size
                while left > 0:
                    n = min(left, 4096); s.sendall(b"%x\\r\\n" % n + b"x" * n + b"\\r\\n"); left -= n
                s.sendall(b"0\\r\\n\\r\\n")
            except OSError: pass
        data = b""
        while True:
            try: more = s.recv(65536)
            except OSError: break
            if not more: break
            data += more
        lines = data.decode().split("\\r\\n")
        print(lines[0]); print(lines[-1].strip())
        """

    private func upload(_ port: UInt16, _ size: Int, _ mode: String) throws -> (status: String, last: String) {
        let result = try Tools.run("python3", ["-c", Self.uploader, String(port), String(size), mode])
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return (lines.first ?? "", lines.count > 1 ? lines[1] : result.stderr)
    }

    private func server(_ configure: (inout MockServer.Configuration) -> Void) throws -> HTTPMockServer {
        var configuration = MockServer.Configuration()
        configure(&configuration)
        let server = HTTPMockServer(configuration: configuration)
        server.stubRequest("POST", "/up").andReturn(.ok(body: "taken"))
        try server.start()
        return server
    }

    @Test("the body limit: just under it served, just over it 413 naming the setting (Content-Length and chunked), raised: served")
    func bodyLimit() throws {
        let limit = 100_000
        let limited = try server { $0.settings[MockServer.HTTPServerSettings.self, default: .init()].maximumRequestBodySize = limit }
        defer { limited.stop() }
        #expect(try upload(limited.port, limit, "length") == ("HTTP/1.1 200 OK", "taken"))
        let over = try upload(limited.port, limit + 1, "length")
        #expect(over.status == "HTTP/1.1 413 Content Too Large")
        #expect(over.last.contains("limit of 100000 bytes") && over.last.contains("maximumRequestBodySize"), "\(over.last)")
        // Chunk framing counts: a chunked body well under the limit is served, one past it refused.
        #expect(try upload(limited.port, limit / 2, "chunked") == ("HTTP/1.1 200 OK", "taken"))
        #expect(try upload(limited.port, limit + 1, "chunked").status == "HTTP/1.1 413 Content Too Large")

        let raised = try server { $0.settings[MockServer.HTTPServerSettings.self, default: .init()].maximumRequestBodySize = 4 * limit }
        defer { raised.stop() }
        #expect(try upload(raised.port, limit + 1, "length") == ("HTTP/1.1 200 OK", "taken"))
        #expect(try upload(raised.port, limit + 1, "chunked") == ("HTTP/1.1 200 OK", "taken"))
    }

    @Test("the default body limit is 64 MiB: one byte past it is refused from the Content-Length alone")
    func defaultBodyLimit() throws {
        #expect(MockServer.HTTPServerSettings().maximumRequestBodySize == 64 << 20)
        let standard = try server { _ in }
        defer { standard.stop() }
        let client = try TestClient(port: standard.port)
        try client.send("POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: \((64 << 20) + 1)\r\n\r\n")
        #expect(try client.readLine() == "HTTP/1.1 413 Content Too Large")
    }

    /// A client that sends a request head a few bytes at a time, `argv[2]` seconds apart, until it
    /// is answered: prints the status line and how many pieces it sent.
    private static let dripper = """
        import socket, sys, select
        port, gap = int(sys.argv[1]), float(sys.argv[2])
        s = socket.create_connection(("127.0.0.1", port))
        head = b"GET /slow HTTP/1.1\\r\\nHost: x\\r\\n" + b"X-Pad: 0123456789\\r\\n" * 200 + b"\\r\\n"
        sent = 0
        while sent < len(head):
            s.sendall(head[sent:sent + 8]); sent += 8
            ready, _, _ = select.select([s], [], [], gap)
            if ready: break
        s.settimeout(10)
        data = s.recv(4096)
        print(data.decode().split("\\r\\n")[0]); print("whole" if sent >= len(head) else "cut")
        """

    @Test("a head that drips past the timeout gets 408 and the connection closes; one in time is answered; nil: no timeout")
    func headTimeout() throws {
        let timed = try server { $0.settings[MockServer.HTTPServerSettings.self, default: .init()].requestHeadTimeout = .milliseconds(300) }
        defer { timed.stop() }
        timed.stubRequest("GET", "/slow").andReturn(.ok(body: "slow"))
        // 8 bytes every 20 ms: the 4,000-byte head would take 10 s.
        let dripped = try Tools.run("python3", ["-c", Self.dripper, String(timed.port), "0.02"])
        #expect(dripped.stdout == "HTTP/1.1 408 Request Timeout\ncut\n", "\(dripped.stdout) \(dripped.stderr)")
        // A whole head at once is never timed, however long the connection stays.
        let client = try TestClient(port: timed.port)
        try client.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try client.readLine() == "HTTP/1.1 200 OK")

        let untimed = try server { $0.settings[MockServer.HTTPServerSettings.self, default: .init()].requestHeadTimeout = nil }
        defer { untimed.stop() }
        untimed.stubRequest("GET", "/slow").andReturn(.ok(body: "slow"))
        // The same head, 8 bytes every millisecond or so (half a second in all), is answered.
        let patient = try Tools.run("python3", ["-c", Self.dripper, String(untimed.port), "0.001"])
        #expect(patient.stdout == "HTTP/1.1 200 OK\nwhole\n", "\(patient.stdout) \(patient.stderr)")
        #expect(MockServer.HTTPServerSettings().requestHeadTimeout == .seconds(60))
    }
}
