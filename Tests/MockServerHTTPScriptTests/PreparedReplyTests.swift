import Foundation
import Testing
import TestSupport
import MockServer
import MockServerCore
import MockServerHTTP
import MockServerHTTPScript
import MockServerScript

/// A script entry of constant sends, pauses, closes and faults is answered with the connection
/// steps worked out when the script loaded: what the client and the transcript see is what the
/// steps worked out per request gave, a request that closes the connection included.
@Suite("Script replies worked out at load, over the wire", .offPool)
struct PreparedReplyTests {
    private static let ok = "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nok\n"

    /// A server of one constant entry, one that closes on purpose and one worked out per request.
    private func server() async throws -> MockServer {
        let script = try ResponseScript(json: """
            {"scheme": "http", "responses": {
                "fixed": {"pattern": "^GET /fixed ", "commands": ["HTTP/1.1 200 OK\\r\\nContent-Length: 3\\r\\n\\r\\nok\\n"]},
                "last": {"pattern": "^GET /last ", "commands": ["HTTP/1.1 200 OK\\r\\nContent-Length: 3\\r\\n\\r\\nok\\n", "«close»"]},
                "path": {"pattern": "^GET (/p/\\\\S*) ", "commands": ["HTTP/1.1 200 OK\\r\\nContent-Length: 5\\r\\n\\r\\n$1"]}}}
            """)
        let server = try MockServer(script: script)
        try await server.start()
        return server
    }

    @Test("keep-alive requests get the same bytes each; Connection: close closes after its answer; each is in the transcript")
    func keepAliveThenClose() async throws {
        let server = try await server()
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        try client.send("GET /fixed HTTP/1.1\r\nHost: x\r\n\r\nGET /p/ab HTTP/1.1\r\nHost: x\r\n\r\nGET /fixed HTTP/1.1\r\nHost: x\r\n\r\n"
                        + "GET /fixed HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let all = String(decoding: try client.readToEnd(), as: UTF8.self)
        #expect(all == Self.ok + "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n/p/ab" + Self.ok + Self.ok)
        let closed = try await server.transcript.wait { $0.event == .closed(.closeRequested) }
        let events = server.transcript.entries.filter { $0.connection == closed.connection }.compactMap { entry -> String? in
            switch entry.event {
            case .input(_, let response): "input \(response ?? "-")"
            case .output(let bytes): "output \(bytes.count)"
            case .closed(let reason): "closed \(reason)"
            default: nil
            }
        }
        #expect(events == ["input fixed", "output 41", "input path", "output 43", "input fixed", "output 41", "input fixed", "output 41",
                           "closed \(Transcript.CloseReason.closeRequested)"])
    }

    @Test("an HTTP/1.0 request without keep-alive is answered and the connection closes")
    func http10() async throws {
        let server = try await server()
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        try client.send("GET /fixed HTTP/1.0\r\n\r\nGET /fixed HTTP/1.0\r\n\r\n")
        #expect(String(decoding: try client.readToEnd(), as: UTF8.self) == Self.ok)
    }

    @Test("a constant reply that closes on purpose closes for the script, on a keep-alive request")
    func scriptedClose() async throws {
        let server = try await server()
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        try client.send("GET /last HTTP/1.1\r\nHost: x\r\n\r\nGET /fixed HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(String(decoding: try client.readToEnd(), as: UTF8.self) == Self.ok)
        _ = try await server.transcript.wait { $0.event == .closed(.script) }
    }
}
