import Foundation
import Testing
import TestSupport
import MockServer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `.truncateBody(after:)`: the head whole, then the body's first bytes, then a close, seen by curl
/// (HTTP/1.1 and HTTP/2) and by URLSession over the socket and in-process. A cut head (the old
/// `.truncate(bytes:)` with a small count) is only ever sent to curl here: FoundationNetworking stops
/// the whole test process on a response without a head ("Transfer completed, but there's no response").
@Suite("Cutting a body, not a head", .offPool)
struct BodyTruncationTests {
    static let body = String(repeating: "0123456789", count: 10)

    private func start() async throws -> HTTPMockServer {
        let server = HTTPMockServer()
        server.stubRequest("GET", "/cut").andReturn(200).withBody(Self.body).withFault(.truncateBody(after: 5))
        server.stubRequest("GET", "/cut-60").andReturn(200).withBody(Self.body).withFault(.truncateBody(after: 60))
        server.stubRequest("GET", "/whole").andReturn(200).withBody(Self.body).withFault(.truncateBody(after: 500))
        server.stubRequest("GET", "/streamed").andReturn(.streamed(StubStream([.init("abcdef"), .init("ghijkl", delay: .milliseconds(20))])).failing(with: .truncateBody(after: 15)))
        server.stubRequest("GET", "/head-cut").andReturn(200).withBody(Self.body).withFault(.truncate(bytes: 5))
        server.stubRequest("GET", "/json").andReturn(.created(json: ["id": 7, "name": "a name long enough to cut"]).failing(with: .truncateBody(after: 10)))
        try await server.start()
        return server
    }

    /// The bytes of each output the transcript holds, as text.
    private func outputs(_ server: HTTPMockServer) -> [String] {
        server.server.transcript.entries.compactMap { entry in
            if case .output(let bytes) = entry.event { String(decoding: bytes, as: UTF8.self) } else { nil }
        }
    }

    @Test("curl over HTTP/1.1: status 200, the head whole, N body bytes, exit 18; a count past the body sends it all",
          .enabled(if: Tools.hasCurl))
    func curlHTTP11() async throws {
        let server = try await start()
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        for (path, count) in [("/cut", 5), ("/cut-60", 60)] {
            let result = try Tools.curl(["-w", "\n%{http_code} %{size_download}", "\(base)\(path)"])
            #expect(result.status == 18, "\(result.stderr)")
            #expect(result.stdout == String(Self.body.prefix(count)) + "\n200 \(count)", "\(result.stdout)")
            #expect(result.stderr.contains("transfer closed with \(100 - count) bytes remaining"), "\(result.stderr)")
        }
        let whole = try Tools.curl(["\(base)/whole"])
        #expect(whole.status == 0 && whole.stdout == Self.body, "\(whole.stderr)")
        // The head went out whole: its own output, with the Content-Length of the whole body.
        let heads = outputs(server).filter { $0.hasPrefix("HTTP/1.1 200") }
        #expect(heads.count == 3 && heads.allSatisfy { $0.contains("Content-Length: 100\r\n") && $0.hasSuffix("\r\n\r\n") }, "\(heads)")
        let json = try Tools.curl(["-w", "\n%{http_code}", "\(base)/json"])
        #expect(json.status == 18 && json.stdout == #"{"id":7,"n"# + "\n201", "\(json.stdout) \(json.stderr)")
    }

    @Test("a body in timed pieces is cut after N bytes as sent (chunk sizes counted); HEAD goes whole", .enabled(if: Tools.hasCurl))
    func streamedAndHead() async throws {
        let server = try await start()
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        let streamed = try Tools.curl(["\(base)/streamed"])
        // "6\r\nabcdef\r\n" is 11 bytes; 4 more are "6\r\ng", so curl has "abcdef" and one "g".
        #expect(streamed.status == 18 && streamed.stdout == "abcdefg", "\(streamed.stdout) \(streamed.stderr)")
        let head = try Tools.curl(["-I", "\(base)/cut"])
        #expect(head.status == 0 && head.stdout.hasPrefix("HTTP/1.1 200") && head.stdout.contains("Content-Length: 100"), "\(head.stdout) \(head.stderr)")
    }

    @Test("the old truncate counts from the status line: 5 bytes cut the head, and curl sees no response (exit 52)",
          .enabled(if: Tools.hasCurl))
    func truncateCutsTheHead() async throws {
        let server = try await start()
        defer { server.stop() }
        let result = try Tools.curl(["-w", "%{http_code}", "http://127.0.0.1:\(server.port)/head-cut"])
        #expect(result.status == 52 && result.stdout == "000", "\(result.stdout) \(result.stderr)")
        #expect(outputs(server) == ["HTTP/"])
    }

    @Test("curl over HTTP/2: HEADERS (content-length 100) and 60 DATA bytes, then the stream ends short: nghttp2 refuses it (exit 16)",
          .enabled(if: Tools.hasCurl))
    func curlHTTP2() async throws {
        let server = try await start()
        defer { server.stop() }
        let result = try Tools.curl(["--http2-prior-knowledge", "-w", "\n%{http_code} %{size_download}", "http://127.0.0.1:\(server.port)/cut-60"])
        #expect(result.status == 16 && result.stderr.contains("HTTP2 framing layer"), "\(result.status) \(result.stdout) \(result.stderr)")
        let whole = try Tools.curl(["--http2-prior-knowledge", "http://127.0.0.1:\(server.port)/whole"])
        #expect(whole.status == 0 && whole.stdout == Self.body, "\(whole.stderr)")
    }

    @Test("URLSession over the socket: the head arrives, the body is cut, and the task fails (the test process goes on)")
    func urlSessionOverSocket() async throws {
        let server = try await start()
        defer { server.stop() }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let error = await #expect(throws: URLError.self) { _ = try await session.data(from: server.url(for: "/cut")) }
        #if canImport(FoundationNetworking)
        // FoundationNetworking reports libcurl's partial transfer (CURLE_PARTIAL_FILE) as -1.
        #expect(error?.code == .unknown, "\(String(describing: error))")
        #else
        #expect(error?.code == .networkConnectionLost, "\(String(describing: error))")
        #endif
        let (whole, _) = try await session.data(from: server.url(for: "/whole"))
        #expect(String(decoding: whole, as: UTF8.self) == Self.body)
    }

    @Test("URLSession in-process: the cut body fails with networkConnectionLost, as on Apple's platforms")
    func urlSessionInProcess() async throws {
        let server = try await start()
        defer { server.stop() }
        let session = try server.makeInProcessSession()
        let error = await #expect(throws: URLError.self) { _ = try await session.data(from: server.url(for: "/cut-60")) }
        #expect(error?.code == .networkConnectionLost, "\(String(describing: error))")
    }
}
