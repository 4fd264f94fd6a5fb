import Foundation
import Testing
import TestSupport
import MockServerHTTP
@testable import MockServerRecording

/// The endpoints file's writer: it makes the text of only the endpoints that changed since the last
/// write, and writes less often as the file grows.
@Suite("Recording: the endpoints file's writes")
struct EndpointsWriterTests {
    private func exchange(_ target: String, _ body: String) throws -> RecordedExchange {
        let request = try #require(HTTPMockRequest(parsing: Array("GET \(target) HTTP/1.1\r\nHost: h\r\n\r\n".utf8)))
        return RecordedExchange(request: request, requestBody: [], status: 200, reason: "OK", headers: ["Content-Type": "text/plain"],
                                body: Array(body.utf8), elapsed: .zero)
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
