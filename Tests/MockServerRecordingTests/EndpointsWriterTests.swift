import Foundation
import Testing
import TestSupport
import MockServerHTTP
@testable import MockServerRecording

/// The endpoints file's writer: it makes the text of only the endpoints that changed since the last
/// write, and writes less often as the file grows.
@Suite("Recording: the endpoints file's writes")
struct EndpointsWriterTests {
    private func exchange(_ target: String, _ body: String, headers: HTTPHeaders = ["Content-Type": "text/plain"],
                          trailers: HTTPHeaders = [:]) throws -> RecordedExchange {
        let request = try #require(HTTPMockRequest(parsing: Array("GET \(target) HTTP/1.1\r\nHost: h\r\n\r\n".utf8)))
        return RecordedExchange(request: request, requestBody: [], status: 200, reason: "OK", headers: headers,
                                body: Array(body.utf8), elapsed: .zero, trailers: trailers)
    }

    @Test("an answer the same as the one before it but for Date and Age (any case) is kept once; any other change, order or trailer included, is a new answer")
    func repeatedAnswers() throws {
        let file = try Tools.temporaryDirectory().appendingPathComponent("recorded.json")
        let writer = try EndpointsWriter(file: file, keepsTiming: false)
        let answers: [(HTTPHeaders, HTTPHeaders)] = [
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
}
