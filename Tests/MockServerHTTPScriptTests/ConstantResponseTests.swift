import Foundation
import Testing
import TestSupport
import MockServer
import MockServerCore
import MockServerHTTP
import MockServerHTTPScript
import MockServerScript

/// A `{"response": …}` without substitutions is made once, when the script loads, and its replies
/// skip the interpreter: what the client and the transcript see stays what a response made per
/// request gives.
@Suite("Responses made once", .offPool)
struct ConstantResponseTests {
    @Test("a response with no substitution, no data and no stream is made when the template is")
    func madeOnce() {
        let constant = HTTPResponseTemplate(status: "201 Created", headers: [.init(name: "X-Kind", value: "fixed $$5")], body: .text("hi\n"))
        #expect(constant.constantResponse == HTTPMockResponse(status: 201, reason: "Created", headers: ["X-Kind": "fixed $5"], body: Array("hi\n".utf8)))
        #expect(HTTPResponseTemplate(body: .bytes([0, 255])).constantResponse == HTTPMockResponse(body: [0, 255]))
        #expect(HTTPResponseTemplate(status: "$1 OK").constantResponse == nil)
        #expect(HTTPResponseTemplate(headers: [.init(name: "Date", value: "$date")]).constantResponse == nil)
        #expect(HTTPResponseTemplate(body: .text("at $path")).constantResponse == nil)
        #expect(HTTPResponseTemplate(body: .data).constantResponse == nil)
        let streamed = HTTPStreamedBody([HTTPMockResponse.StreamPiece(Array("a".utf8))], end: .complete)
        #expect(HTTPResponseTemplate(status: "200 OK", headers: [], body: .bytes([]), streamed: streamed).constantResponse == nil)
    }

    @Test("a reply of constant sends, pauses, closes and responses made once needs no run; anything else does")
    func constantReplies() {
        let fixed = HTTPResponseTemplate(body: .text("ok"))
        let steps = HTTPScriptCommand.constantSteps(of: [.pause(.milliseconds(5)), .httpResponse(fixed), .send("x"), .close])
        let shapes = steps?.map { step -> String in
            switch step {
            case .pause(let duration): "pause \(duration)"
            case .output(.response(let response)): "response \(String(decoding: response.body, as: UTF8.self))"
            case .send(let bytes): "send \(String(decoding: bytes, as: UTF8.self))"
            case .close: "close"
            default: "other"
            }
        }
        #expect(shapes == ["pause 0.005 seconds", "response ok", "send x", "close"])
        #expect(HTTPScriptCommand.constantSteps(of: [.httpResponse(fixed)])?.count == 1)
        #expect(HTTPScriptCommand.constantSteps(of: [.httpResponse(HTTPResponseTemplate(body: .text("at $path")))]) == nil)
        #expect(HTTPScriptCommand.constantSteps(of: [.send("at $path"), .httpResponse(fixed)]) == nil)
        #expect(HTTPScriptCommand.constantSteps(of: [.useSet("other"), .httpResponse(fixed)]) == nil)
    }

    @Test("replies of responses made once: the same bytes, Connection: close for the request that asks, a pause and a close, in the transcript")
    func overTheWire() async throws {
        let script = try ResponseScript(json: """
            {"scheme": "http", "responses": {
                "fixed": {"pattern": "^GET /fixed ", "commands": [{"response": {"headers": {"Content-Type": "text/plain"}, "body": "ok\\n"}}]},
                "path": {"pattern": "^GET /p/", "commands": [{"response": {"body": "at $path\\n"}}]},
                "last": {"pattern": "^GET /last ", "commands": [0.01, {"response": {"status": "202 Accepted", "body": "bye\\n"}}, "«close»"]}}}
            """)
        let server = try MockServer(script: script)
        try await server.start()
        defer { server.stop() }
        let fixed = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 3\r\n\r\nok\n"

        let client = try TestClient(port: server.port)
        try client.send("GET /fixed HTTP/1.1\r\nHost: x\r\n\r\nGET /p/q HTTP/1.1\r\nHost: x\r\n\r\nGET /fixed HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let kept = String(decoding: try client.readToEnd(), as: UTF8.self)
        #expect(kept == fixed + "HTTP/1.1 200 OK\r\nContent-Length: 8\r\n\r\nat /p/q\n"
                + "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\nContent-Length: 3\r\n\r\nok\n")

        let last = try TestClient(port: server.port)
        try last.send("GET /last HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(String(decoding: try last.readToEnd(), as: UTF8.self) == "HTTP/1.1 202 Accepted\r\nContent-Length: 4\r\n\r\nbye\n")
        let closed = try await server.transcript.wait { $0.event == .closed(.script) }
        let events = server.transcript.entries.filter { $0.connection == closed.connection }.compactMap { entry -> String? in
            switch entry.event {
            case .input(_, let response): "input \(response ?? "-")"
            case .paused: "pause"
            case .output(let bytes): String(decoding: bytes.prefix(12), as: UTF8.self)
            case .closed(let reason): reason == .script ? "script close" : "close: \(reason)"
            default: nil
            }
        }
        #expect(events == ["input last", "pause", "HTTP/1.1 202", "script close"])
        #expect(server.transcript.inputs.count == 4)
    }
}
