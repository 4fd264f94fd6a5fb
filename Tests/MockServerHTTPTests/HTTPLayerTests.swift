import Foundation
import Testing
import TestSupport
import MockServer
import MockServerResponses

/// A responder that answers after an `await`, as a closure that looks something up would.
private actor Counter {
    var count = 0
    func next() -> Int {
        count += 1
        return count
    }
}

private struct AsyncResponder: HTTPMockResponder {
    let counter = Counter()

    struct Refused: Error, CustomStringConvertible {
        var description: String { "refused on purpose" }
    }

    func respond(to request: HTTPMockRequest, context: HTTPRequestContext) async throws -> HTTPReply? {
        switch request.path {
        case "/count":
            let value = await counter.next()
            return HTTPReply(HTTPMockResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Array("\(value) \(request.query ?? "")".utf8)), name: "count")
        case "/throw":
            throw Refused()
        default:
            return nil
        }
    }
}

@Suite("The HTTP layer: persistence, asynchronous responders, load", .offPool)
struct HTTPLayerTests {
    private static let script = """
        {"scheme": "http", "responses": {
            "hello": {"pattern": "^GET /hello ", "commands": [{"response": {"body": "hi\\n"}}]}
        }}
        """

    private func start() throws -> MockServer {
        let server = try MockServer(script: ResponseScript(json: Self.script))
        try server.start()
        return server
    }

    @Test("HTTP/1.0 without keep-alive gets Connection: close and the server closes; with keep-alive it stays open")
    func http10Persistence() async throws {
        let server = try start()
        defer { server.stop() }
        let plain = try TestClient(port: server.port)
        try plain.send("GET /hello HTTP/1.0\r\n\r\n")
        let closed = String(decoding: try plain.readToEnd(), as: UTF8.self)
        #expect(closed == "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 3\r\n\r\nhi\n")

        let kept = try TestClient(port: server.port)
        try kept.send("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(try kept.readLine() == "HTTP/1.1 200 OK")
        #expect(try kept.readLine() == "Connection: keep-alive")
        #expect(try kept.readLine() == "Content-Length: 3")
        #expect(try kept.readLine() == "")
        #expect(try kept.readLine() == "hi")
        try kept.send("GET /hello HTTP/1.1\r\nConnection: close\r\n\r\n")
        let last = String(decoding: try kept.readToEnd(), as: UTF8.self)
        #expect(last == "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 3\r\n\r\nhi\n")
        try await server.waitForConnectionsClosed()
        #expect(server.transcript.entries.filter { $0.event == .closed(.closeRequested) }.count == 2)
    }

    @Test("script commands that act on the server run when the reply reaches them: the transcript shows them in order")
    func commandsRunInOrder() async throws {
        let script = """
            {"scheme": "http", "sets": {"default": {"responses": ["put", "switch"]}, "later": {"responses": ["list"]}},
             "responses": {
                "put": {"pattern": "^PUT ", "commands": [{"response": {"status": "100 Continue"}}, 0.05, {"save": "$path"}, {"response": {"status": "201 Created"}}]},
                "switch": {"pattern": "^GET /switch ", "commands": [{"set": "later"}, {"response": {"body": "switched"}}]},
                "list": {"pattern": "^GET /list ", "commands": [{"file": "/a.txt", "otherwise": [{"response": {"status": "404 Not Found"}}]}, {"response": {"body": "«data»"}}]}
             }}
            """
        let server = try MockServer(script: ResponseScript(json: script))
        try await server.start()
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        try client.send("PUT /a.txt HTTP/1.1\r\nContent-Length: 3\r\n\r\nabcGET /switch HTTP/1.1\r\n\r\nGET /list HTTP/1.1\r\nConnection: close\r\n\r\n")
        let text = String(decoding: try client.readToEnd(), as: UTF8.self)
        #expect(text.hasSuffix("Connection: close\r\nContent-Length: 3\r\n\r\nabc"), "\(text)")
        try await server.waitForConnectionsClosed()
        let events = server.transcript.entries.map(\.event).map { event -> String in
            switch event {
            case .connected: "connected"
            case .input(_, let response): "input \(response ?? "")"
            case .output(let bytes): "output \(String(decoding: bytes.prefix(12), as: UTF8.self))"
            case .paused: "pause"
            case .uploaded(let name, _): "uploaded \(name)"
            case .switchedSet(let name): "set \(name)"
            case .closed(let reason): "closed \(reason)"
            default: "\(event)"
            }
        }
        #expect(events == ["connected", "input put", "output HTTP/1.1 100", "pause", "uploaded /a.txt", "output HTTP/1.1 201",
                           "input switch", "set later", "output HTTP/1.1 200", "input list", "output HTTP/1.1 200", "closed close requested by peer"])
    }

    @Test("a response worked out after a pause that says Connection: close ends the connection once it is sent")
    func closeWorkedOutLater() async throws {
        let script = """
            {"scheme": "http", "responses": {
                "bye": {"pattern": "^GET /bye ", "commands": [0.01, {"response": {"headers": {"Connection": "close"}, "body": "bye\\n"}}]}
            }}
            """
        let server = try MockServer(script: ResponseScript(json: script))
        try await server.start()
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        try client.send("GET /bye HTTP/1.1\r\n\r\n")
        let text = String(decoding: try client.readToEnd(), as: UTF8.self)
        #expect(text == "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 4\r\n\r\nbye\n")
        try await server.waitForConnectionsClosed()
        #expect(server.transcript.entries.contains { $0.event == .closed(.closeRequested) })
    }

    @Test("an HTTP server binds no data port")
    func noDataPort() throws {
        let server = try start()
        defer { server.stop() }
        #expect(server.port != 0)
        #expect(server.dataPort == 0)
        let responder = MockServer(httpResponder: AsyncResponder())
        try responder.start()
        defer { responder.stop() }
        #expect(responder.dataPort == 0)
        #expect(responder.url(for: "/x").absoluteString == "http://127.0.0.1:\(responder.port)/x")
    }

    @Test("an asynchronous responder answers in order on one connection; an error is a 500 naming it; no answer closes")
    func asynchronousResponder() async throws {
        let server = MockServer(httpResponder: AsyncResponder())
        try await server.start()
        defer { server.stop() }
        let port = server.port
        // The responder awaits on Swift's cooperative pool, so the blocking client runs off it.
        let (heads, bodies, failure, rest) = try await offPool { () throws -> ([String], [String], String, String) in
            let client = try TestClient(port: port)
            // Pipelined: the second request waits for the first answer.
            try client.send("GET /count?a HTTP/1.1\r\n\r\nGET /count?b HTTP/1.1\r\n\r\n")
            var heads: [String] = []
            var bodies: [String] = []
            for expected in ["1 a", "2 b"] {
                for _ in 0..<4 { heads.append(try client.readLine()) }
                bodies.append(String(decoding: try client.read(count: expected.utf8.count), as: UTF8.self))
            }
            try client.send("GET /throw HTTP/1.1\r\n\r\n")
            let failure = try client.readLine()
            try client.send("GET /nothing HTTP/1.1\r\n\r\n")
            return (heads, bodies, failure, String(decoding: try client.readToEnd(), as: UTF8.self))
        }
        #expect(heads == ["HTTP/1.1 200 OK", "Content-Type: text/plain", "Content-Length: 3", "",
                          "HTTP/1.1 200 OK", "Content-Type: text/plain", "Content-Length: 3", ""])
        #expect(bodies == ["1 a", "2 b"])
        #expect(failure == "HTTP/1.1 500 Internal Server Error")
        #expect(rest.contains("the responder failed: refused on purpose"))
        try await server.waitForConnectionsClosed()
        #expect(server.transcript.unmatched.map(\.description).first?.contains("GET /nothing") == true)
        #expect(server.transcript.entries.last?.event == .closed(.unmatchedInput))
    }

    @Test("ab completes 2,000 requests against the bundled http.json, with and without keep-alive",
          .enabled(if: Tools.hasAb), arguments: [false, true])
    func apacheBench(keepAlive: Bool) throws {
        let server = try MockServer(script: BundledResponses.script(named: "http"))
        try server.start()
        defer { server.stop() }
        let options = (keepAlive ? ["-k"] : []) + ["-q", "-n", "2000", "-c", "10", "-s", "20", "-A", "user:pass"]
        let result = try Tools.run("ab", options + ["http://127.0.0.1:\(server.port)/items"], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Complete requests:      2000"), "\(result.stdout)")
        #expect(result.stdout.contains("Failed requests:        0"), "\(result.stdout)")
        if keepAlive { #expect(result.stdout.contains("Keep-Alive requests:    2000"), "\(result.stdout)") }
        #expect(server.transcript.unmatched.isEmpty)
    }
}
