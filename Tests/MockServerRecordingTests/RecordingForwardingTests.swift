import Foundation
import Testing
import TestSupport
import MockServer
import MockServerRecording

/// What the recorder forwards: nothing its own parser refuses, no `CONNECT`, no hop-by-hop field
/// under any spelling; the upstream's transcript shows what reached it.
@Suite("Recording: what reaches the upstream", .offPool)
struct RecordingForwardingTests {
    /// A recorder in front of an upstream that answers every GET and POST.
    static func start() async throws -> (upstream: HTTPMockServer, proxy: MockServer, folder: URL) {
        let upstream = HTTPMockServer()
        for method in ["GET", "POST"] { try upstream.stubRequest(method, matching: "^/").andReturn(200).withBody("upstream\n") }
        try await upstream.start()
        let folder = try Tools.temporaryDirectory().appendingPathComponent("Recorded")
        let recorder = try HTTPRecorder(upstream: upstream.url(for: "/"), destination: .mockData(folder: folder))
        let proxy = MockServer(httpResponder: recorder)
        try await proxy.start()
        return (upstream, proxy, folder)
    }

    /// The requests the upstream received, as text: those its stubs answered and those they did not.
    static func received(by upstream: HTTPMockServer) -> [String] {
        upstream.transcript.entries.compactMap { entry -> String? in
            switch entry.event {
            case .input(let unit, _), .unmatched(let unit): String(decoding: unit.bytes, as: UTF8.self)
            default: nil
            }
        }
    }

    /// The status line and the rest of an answer read to the connection's end.
    static func exchange(_ port: UInt16, _ request: String) throws -> (statusLine: String, rest: String) {
        let client = try TestClient(port: port)
        try client.send(request)
        let statusLine = try client.readLine()
        return (statusLine, String(decoding: try client.readToEnd(), as: UTF8.self))
    }

    /// Raw requests the strict parser refuses (or, before it knows them all, may refuse): the
    /// recorder answers each as any other listener of this package does, and forwards none it refuses.
    static let refusable = [
        "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\nConnection: close\r\n\r\nabc",
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\nConnection: close\r\n\r\nabcd",
        "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\nConnection: close\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nBad Name: v\r\nConnection: close\r\n\r\n",
        "GET / HTTP/9.9\r\nHost: x\r\nConnection: close\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\nConnection: close\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding : chunked\r\nConnection: close\r\n\r\n",
    ]

    @Test("a request the server's parser refuses gets the same refusal from the recorder and never reaches the upstream", arguments: refusable)
    func refusedNeverForwarded(request: String) async throws {
        let (upstream, proxy, folder) = try await Self.start()
        defer { upstream.stop(); proxy.stop(); try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        // Any other HTTP listener of the package, as the reference for what the parser refuses.
        let reference = HTTPMockServer()
        try reference.stubRequest("GET", matching: "^/").andReturn(200)
        try reference.stubRequest("POST", matching: "^/").andReturn(200)
        try await reference.start()
        defer { reference.stop() }
        let expected = try Self.exchange(reference.port, request).statusLine
        let answer = try Self.exchange(proxy.port, request)
        #expect(answer.statusLine == expected, "\(answer)")
        let refused = !expected.hasPrefix("HTTP/1.1 2")
        // A good request after it on a new connection does reach the upstream: the check below is not vacuous.
        let good = try Self.exchange(proxy.port, "GET /after HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(good.statusLine.hasPrefix("HTTP/1.1 200"), "\(good)")
        let received = Self.received(by: upstream)
        if refused {
            #expect(received.count == 1 && received[0].hasPrefix("GET /after "), "\(received)")
        }
        // What today's parser already refuses, the recorder must refuse.
        if request.contains("gzip") || request.contains("Content-Length: 4") { #expect(refused, "\(expected)") }
    }

    @Test("CONNECT gets 405 from the recorder itself, with Allow and a body naming it; the upstream never hears of it")
    func connectRefused() async throws {
        let (upstream, proxy, folder) = try await Self.start()
        defer { upstream.stop(); proxy.stop(); try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let answer = try Self.exchange(proxy.port, "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\nConnection: close\r\n\r\n")
        #expect(answer.statusLine == "HTTP/1.1 405 Method Not Allowed", "\(answer)")
        #expect(answer.rest.contains("Allow: GET, HEAD, POST") && answer.rest.contains("CONNECT"), "\(answer.rest)")
        // A CONNECT whose target is not host:port is not HTTP: the parser refuses it first.
        let path = try Self.exchange(proxy.port, "CONNECT / HTTP/1.1\r\nHost: example.com:443\r\nConnection: close\r\n\r\n")
        #expect(path.statusLine == "HTTP/1.1 400 Bad Request", "\(path)")
        #expect(path.rest.contains("the target of CONNECT is not host:port"), "\(path.rest)")
        #expect(Self.received(by: upstream).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test("hop-by-hop fields in any case, and those Connection names with odd case and spacing, are not forwarded")
    func hopByHop() async throws {
        let (upstream, proxy, folder) = try await Self.start()
        defer { upstream.stop(); proxy.stop(); try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let request = "POST /hop HTTP/1.1\r\nHost: x\r\nCONNECTION: keep-alive,  X-Drop-Me ,x-ALSO-drop\r\nKeep-Alive: timeout=5\r\ntE: trailers\r\n"
            + "TRAILER: X-Later\r\nUpgrade: h2c\r\nPROXY-CONNECTION: keep-alive\r\nx-drop-me: 1\r\nX-Also-Drop: 2\r\nX-Kept: yes\r\n"
            + "transfer-ENCODING: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
        let client = try TestClient(port: proxy.port)
        try client.send(request)
        #expect(try client.readLine() == "HTTP/1.1 200 OK")
        let received = Self.received(by: upstream)
        #expect(received.count == 1)
        let head = (received.first ?? "").lowercased()
        #expect(head.contains("x-kept: yes") && head.contains("content-length: 3") && head.hasSuffix("\r\n\r\nabc"), "\(head)")
        for name in ["connection", "keep-alive", "te:", "trailer", "upgrade", "proxy-connection", "x-drop-me", "x-also-drop", "transfer-encoding"] {
            #expect(!head.contains("\r\n\(name)"), "\(name) was forwarded: \(head)")
        }
    }

    /// The client's reply goes out as soon as the upstream's answer is read, and the upstream
    /// connection is back in the pool before that: a request the client sent behind the first
    /// takes the same connection.
    @Test("requests a client pipelines are answered in order, one after another on one upstream connection")
    func pipelinedOnOneUpstreamConnection() async throws {
        let (upstream, proxy, folder) = try await Self.start()
        defer { upstream.stop(); proxy.stop(); try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let client = try TestClient(port: proxy.port)
        try client.send((1...4).map { "GET /p\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined())
        for _ in 1...4 {
            #expect(try client.readLine() == "HTTP/1.1 200 OK")
            var length = 0
            while case let line = try client.readLine(), !line.isEmpty {
                if line.lowercased().hasPrefix("content-length:") { length = Int(line.dropFirst(15).trimmingCharacters(in: .whitespaces)) ?? 0 }
            }
            #expect(String(decoding: try client.read(count: length), as: UTF8.self) == "upstream\n")
        }
        #expect(Self.received(by: upstream).map { $0.split(separator: " ")[1] } == ["/p1", "/p2", "/p3", "/p4"])
        #expect(upstream.transcript.entries.filter { if case .connected = $0.event { true } else { false } }.count == 1)
    }
}
