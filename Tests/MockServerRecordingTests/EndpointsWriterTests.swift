import Foundation
import Testing
import TestSupport
import MockServerHTTP
@testable import MockServerRecording

/// The endpoints file's writer: it makes the text of only the endpoints that changed since the last
/// write, and writes less often as the file grows.
@Suite("Recording: the endpoints file's writes")
struct EndpointsWriterTests {
    private func exchange(_ target: String, _ body: String, headers: HTTPHeaderFields = ["Content-Type": "text/plain"],
                          trailers: HTTPHeaderFields = [:]) throws -> RecordedExchange {
        let request = try #require(HTTPMockRequest(parsing: Array("GET \(target) HTTP/1.1\r\nHost: h\r\n\r\n".utf8)))
        return RecordedExchange(request: request, requestBody: [], status: 200, reason: "OK", headers: headers,
                                body: Array(body.utf8), elapsed: .zero, trailers: trailers)
    }

    @Test("an answer the same as the one before it but for Date and Age (any case) is kept once; any other change, order or trailer included, is a new answer")
    func repeatedAnswers() throws {
        let file = try Tools.temporaryDirectory().appendingPathComponent("recorded.json")
        let writer = try EndpointsWriter(file: file, keepsTiming: false)
        let answers: [(HTTPHeaderFields, HTTPHeaderFields)] = [
            (["Date": "Mon", "X-A": "1", "X-B": "2"], [:]),
            (["DATE": "Tue", "X-A": "1", "age": "3", "X-B": "2"], [:]),  // the same
            (["X-A": "1", "X-B": "2"], [:]),                             // the same
            (["X-B": "2", "X-A": "1"], [:]),                             // another order
            (["X-B": "2", "X-A": "1", "X-C": "3"], [:]),                 // one more field
            (["X-B": "2", "X-A": "1", "X-C": "3"], ["Grpc-Status": "0"]), // a trailer
            (["Date": "Wed", "X-B": "2", "X-A": "1", "X-C": "3"], ["Grpc-Status": "0"]), // the same
            (["X-B": "2", "Age": "1", "X-A": "1"], ["Grpc-Status": "0"]), // one field fewer
            (["X-B": "2", "X-A": "1", "Age": "2", "date": "Thu"], ["Grpc-Status": "0"]), // the same
            (["X-B": "2", "X-A": "2"], ["Grpc-Status": "0"]),             // a value
        ]
        for (headers, trailers) in answers { try writer.record(exchange("/a", "one", headers: headers, trailers: trailers)) }
        try writer.flush()
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.components(separatedBy: "\"status\": 200").count - 1 == 6, "\(text)")
    }

    @Test("an endpoint that changes after a write is written again with its sequence; the others keep their text and order")
    func changesBetweenWrites() throws {
        let file = try Tools.temporaryDirectory().appendingPathComponent("recorded.json")
        let writer = try EndpointsWriter(file: file, keepsTiming: false)
        try writer.record(exchange("/a", "one"))
        try writer.record(exchange("/b", "bee"))
        try writer.flush()
        try writer.record(exchange("/a", "two"))
        try writer.record(exchange("/c", "sea"))
        try writer.flush()
        let text = try String(contentsOf: file, encoding: .utf8)
        let a = try #require(text.range(of: #"{ "api": "get /a", "responses": ["#))
        let b = try #require(text.range(of: #"{ "api": "get /b", "response": { "status": 200, "headers": { "Content-Type": "text/plain" }, "body": "bee" } }"#))
        let c = try #require(text.range(of: #"{ "api": "get /c", "response": "#))
        #expect(a.lowerBound < b.lowerBound && b.lowerBound < c.lowerBound)
        #expect(text.contains(#""body": "one" },"#) && text.contains(#""body": "two" }"#))
        #expect(text.components(separatedBy: "\"api\"").count == 4)
    }

    @Test("the wait before the next write is 200 ms, or ten times the last write's time when that is longer",
          arguments: [(Duration.zero, 200), (.milliseconds(20), 200), (.milliseconds(21), 210), (.milliseconds(1500), 15_000)])
    func pause(after duration: Duration, milliseconds: Int) {
        #expect(EndpointsWriter.pause(after: duration) == .milliseconds(milliseconds))
    }

    /// An exchange of `method` on `target` with a request `body`, answered `answer`.
    private func exchange(_ method: String, _ target: String, body: String = "", answer: String) throws -> RecordedExchange {
        let request = try #require(HTTPMockRequest(parsing: Array("\(method) \(target) HTTP/1.1\r\nHost: h\r\n\r\n".utf8)))
        return RecordedExchange(request: request, requestBody: Array(body.utf8), status: 200, reason: "OK", headers: [:],
                                body: Array(answer.utf8), elapsed: .zero)
    }

    /// Records `exchanges` in order, flushes, and gives each endpoint's `api` (and request body) with
    /// its answers' bodies in order, as the file has them.
    private func recorded(_ exchanges: [RecordedExchange], flushingAfter: Set<Int> = []) throws -> [String] {
        let file = try Tools.temporaryDirectory().appendingPathComponent("recorded.json")
        let writer = try EndpointsWriter(file: file, keepsTiming: false)
        for (number, exchange) in exchanges.enumerated() {
            try writer.record(exchange)
            if flushingAfter.contains(number) { try writer.flush() }
        }
        try writer.flush()
        let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let endpoints = try #require(root["endpoints"] as? [[String: Any]])
        return try endpoints.map { endpoint in
            var line = try #require(endpoint["api"] as? String)
            if let request = endpoint["request"] as? [String: Any], let body = request["body"] as? String { line += " <\(body)>" }
            var answers = endpoint["responses"] as? [[String: Any]] ?? []
            if answers.isEmpty { answers = [try #require(endpoint["response"] as? [String: Any])] }
            return line + ": " + answers.map { ($0["body"] as? String) ?? "?" }.joined(separator: ",")
        }
    }

    @Test("the key is the method, the path and query as sent (order and case kept) and the body: other orders, cases and bodies are other endpoints, also when answered the same")
    func keyKeepsOrderAndCase() throws {
        let requests: [(String, String, String)] = [
            ("GET", "/a?x=1&y=2", ""), ("GET", "/a?y=2&x=1", ""), ("GET", "/A?x=1&y=2", ""), ("GET", "/a?X=1&y=2", ""),
            ("POST", "/a?x=1&y=2", ""), ("POST", "/a?x=1&y=2", "b"), ("POST", "/a?x=1&y=2", "B"), ("POST", "/a?x=1&y=2", "bb"),
            ("GET", "/a?x=1&y=2", ""), ("POST", "/a?x=1&y=2", "B"),
        ]
        let lines = try recorded(requests.map { try exchange($0.0, $0.1, body: $0.2, answer: "1") })
        #expect(lines == ["get /a?x=1&y=2: 1", "get /a?y=2&x=1: 1", "get /A?x=1&y=2: 1", "get /a?X=1&y=2: 1",
                          "post /a?x=1&y=2: 1", "post /a?x=1&y=2 <b>: 1", "post /a?x=1&y=2 <B>: 1", "post /a?x=1&y=2 <bb>: 1"])
    }

    @Test("targets written differently that name one endpoint are one: an absolute URL, a bare trailing `?`, a body in another Unicode form")
    func keyOfOtherSpellings() throws {
        let lines = try recorded([
            exchange("GET", "/a", answer: "1"), exchange("GET", "http://h:8/a", answer: "1"), exchange("GET", "/a?", answer: "2"),
            exchange("GET", "http://other/a?", answer: "2"), exchange("GET", "/a", answer: "1"),
            exchange("PUT", "/c", body: "caf\u{E9}", answer: "3"), exchange("PUT", "/c", body: "cafe\u{301}", answer: "4"),
            exchange("PUT", "/c", body: "cafe\u{301}", answer: "4"), exchange("PUT", "/c", body: "caf\u{E9}", answer: "3"),
        ])
        #expect(lines == ["get /a: 1,2,1", "put /c <caf\u{E9}>: 3,4,3"])
    }

    @Test("a request answered differently becomes a sequence of its changes, before and after a write; one answered the same again changes nothing")
    func sequencesAcrossWrites() throws {
        let a = { (answer: String) in try self.exchange("GET", "/a", answer: answer) }
        let b = { (answer: String) in try self.exchange("DELETE", "/b", answer: answer) }
        let lines = try recorded([a("1"), a("1"), b("x"), a("2"), a("2"), a("1"), b("x"), a("1"), b("y"), a("3"), b("y")],
                                 flushingAfter: [1, 5, 6, 9])
        #expect(lines == ["get /a: 1,2,1,3", "delete /b: x,y"])
    }

    @Test("a request the format cannot say is refused every time, also after one it could say: another method (or case), a body that is not UTF-8, a body with `${`")
    func keyRefusals() throws {
        let file = try Tools.temporaryDirectory().appendingPathComponent("recorded.json")
        let writer = try EndpointsWriter(file: file, keepsTiming: false)
        try writer.record(exchange("POST", "/a", body: "ok", answer: "1"))
        for refused in [try exchange("TRACE", "/a", answer: "1"), try exchange("get", "/a", answer: "1"),
                        try exchange("POST", "/a", body: "${x}", answer: "1")] {
            for _ in 0..<2 { #expect(throws: RecordingError.self) { try writer.record(refused) } }
        }
        let binary = RecordedExchange(request: try #require(HTTPMockRequest(parsing: Array("POST /a HTTP/1.1\r\nHost: h\r\n\r\n".utf8))),
                                      requestBody: [0xFF], status: 200, reason: "OK", headers: [:], body: [], elapsed: .zero)
        for _ in 0..<2 { #expect(throws: RecordingError.self) { try writer.record(binary) } }
    }
}
