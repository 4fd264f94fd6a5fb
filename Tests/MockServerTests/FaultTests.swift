import Foundation
import Testing
import TestSupport
import MockServer
import MockServerCore
import MockServerHTTP
import MockServerScript
import MockServerWebDAV

/// Faults on demand, each seen by a real client.
@Suite("Fault commands", .offPool)
struct FaultTests {
    static let script = """
        {"scheme": "http", "responses": {
            "reset":    {"pattern": "^GET /reset ",    "commands": ["HTTP/1.1 200 OK\\r\\nContent-Length: 100\\r\\n\\r\\npartial", "«reset»"]},
            "truncate": {"pattern": "^GET /truncate ", "commands": [{"truncate": 50}, {"response": {"body": "0123456789012345678901234567890123456789"}}]},
            "hang":     {"pattern": "^GET /hang ",     "commands": ["«hang»"]},
            "dribble":  {"pattern": "^GET /dribble ",  "commands": [{"dribble": 2000}, {"response": {"body": "$path is dribbled out slowly, a few bytes at a time, to test timeouts.\\n"}}]},
            "half":     {"pattern": "^GET /half ",     "commands": [{"response": {"headers": {"Connection": "close"}, "body": "bye\\n"}}, "«half-close»"]},
            "after":    {"pattern": "^GET /after ",    "commands": [{"response": {"body": "never sent\\n"}}]},
            "cutLarge": {"pattern": "^GET /cut-large ", "commands": [{"truncate": 30000}, {"response": {"body": "\(String(repeating: "x", count: 40_000))"}}]}
        }}
        """

    private func start() throws -> MockServer {
        let server = try MockServer(script: ResponseScript(json: Self.script))
        try server.start()
        return server
    }

    private func curl(_ server: MockServer, _ path: String, _ options: [String] = []) throws -> Tools.Result {
        try Tools.curl(options + ["http://127.0.0.1:\(server.port)\(path)"])
    }

    @Test("«reset» makes curl report a reset connection", .enabled(if: Tools.hasCurl))
    func reset() async throws {
        let server = try start()
        defer { server.stop() }
        let result = try curl(server, "/reset")
        #expect(result.status == 56, "\(result.stderr)")
        #expect(result.stderr.contains("reset"), "\(result.stderr)")
        let closed = try await server.transcript.wait { if case .closed = $0.event { true } else { false } }
        #expect(closed.event == .closed(.resetByScript))
    }

    @Test("truncate sends the first N bytes of the reply and closes: curl reports a partial transfer", .enabled(if: Tools.hasCurl))
    func truncate() throws {
        let server = try start()
        defer { server.stop() }
        let result = try curl(server, "/truncate")
        #expect(result.status == 18, "\(result.stderr)")
        let sent = server.transcript.entries.compactMap { entry -> Int? in if case .output(let bytes) = entry.event { bytes.count } else { nil } }
        #expect(sent == [50])
    }

    @Test("truncate counts a large body's bytes with its head: the head and the body, sent apart, are cut as one send", .enabled(if: Tools.hasCurl))
    func truncateLargeBody() throws {
        let server = try start()
        defer { server.stop() }
        let result = try curl(server, "/cut-large", ["-o", "/dev/null", "-w", "%{size_download}"])
        #expect(result.status == 18, "\(result.stderr)")
        let sent = server.transcript.entries.compactMap { entry -> Int? in if case .output(let bytes) = entry.event { bytes.count } else { nil } }
        #expect(sent == [30_000])
        // What curl read of the body: the 30,000 bytes less the head's.
        let head = 30_000 - (Int(result.stdout) ?? 0)
        #expect(head > 30 && head < 200, "\(result.stdout)")
    }

    @Test("«hang» keeps the connection open with no answer: curl times out", .enabled(if: Tools.hasCurl))
    func hang() throws {
        let server = try start()
        defer { server.stop() }
        let result = try curl(server, "/hang", ["--max-time", "1"])
        #expect(result.status == 28, "\(result.stderr)")
    }

    @Test("dribble sends the reply in small timed pieces; curl still gets all of it", .enabled(if: Tools.hasCurl))
    func dribble() throws {
        let server = try start()
        defer { server.stop() }
        let started = ContinuousClock.now
        let result = try curl(server, "/dribble")
        #expect(result.stdout == "/dribble is dribbled out slowly, a few bytes at a time, to test timeouts.\n", "\(result.stderr)")
        let pieces = server.transcript.entries.filter { if case .output = $0.event { true } else { false } }
        #expect(pieces.count >= 5)
        // 20-byte pieces at 2,000 bytes/s: 10 ms between pieces.
        #expect(ContinuousClock.now - started >= .milliseconds(10 * (pieces.count - 1)))
    }

    @Test("«half-close» stops sending but keeps reading", .enabled(if: Tools.hasPython))
    func halfClose() async throws {
        let server = try start()
        defer { server.stop() }
        let result = try Tools.python("""
            import socket
            s = socket.create_connection(("127.0.0.1", \(server.port)), timeout=10)
            s.sendall(b"GET /half HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n")
            data = b""
            while True:
                chunk = s.recv(4096)
                if not chunk: break
                data += chunk
            print(data.endswith(b"bye\\n"))
            s.sendall(b"GET /after HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n")
            print("sent")
            """)
        #expect(result.stdout == "True\nsent\n", "\(result.stderr)")
        try await server.transcript.waitForInput(matching: "^GET /after ")
        let neverSent = server.transcript.entries.contains { entry in
            if case .output(let bytes) = entry.event { String(decoding: bytes, as: UTF8.self).contains("never sent") } else { false }
        }
        #expect(!neverSent)
    }

    @Test("fault commands load, and bad arguments are refused with their place")
    func loading() {
        #expect(throws: ResponseFileError.self) { try ResponseScript(json: #"{"responses": {"r": {"pattern": "x", "commands": [{"dribble": 0}]}}}"#) }
        #expect(throws: ResponseFileError.self) { try ResponseScript(json: #"{"responses": {"r": {"pattern": "x", "commands": [{"truncate": -1}]}}}"#) }
        #expect(throws: ResponseFileError.self) { try ResponseScript(json: #"{"responses": {"r": {"pattern": "x", "commands": [{"truncate": 1.5}]}}}"#) }
    }
}
