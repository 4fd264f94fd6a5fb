import Foundation
import Testing
import TestSupport
import MockServer

/// Bodies in timed pieces from an HTTP response script: `{"response": {"events": …}}` and
/// `"chunks"`, written as in an endpoints file and sent by the same writer.
@Suite("Streamed responses from scripts", .offPool)
struct ScriptStreamTests {
    static let script = #"""
        {"scheme": "http", "responses": {
            "ticks": {"pattern": "^GET /ticks ", "commands": [{"response": {"events": [
                {"event": "tick", "data": "1"},
                {"event": "tick", "data": "2", "delay": 0.2},
                {"id": "7", "data": "two\nlines"}]}}]},
            "slow":  {"pattern": "^GET /slow ", "commands": [{"response": {"events": [{"data": "first"}, {"data": "second", "delay": 30}], "end": "hang"}}]},
            "cut":   {"pattern": "^GET /cut ", "commands": [{"response": {"status": "200 OK", "headers": {"Content-Type": "text/plain"},
                                                            "chunks": [{"data": "whole piece\n"}, {"data": "this one is cut\n", "delay": 0.01}], "end": "cut"}}]}
        }}
        """#

    @Test("events: text/event-stream, chunked, each event at its time; the connection serves the next request", .enabled(if: Tools.hasCurl))
    func events() throws {
        let server = try MockServer(script: ResponseScript(json: Self.script))
        try server.start()
        defer { server.stop() }
        let url = server.url(for: "/ticks").absoluteString
        let result = try Tools.curl(["-N", "-D", "-", "-w", "%{time_total}", url, url])
        #expect(result.status == 0, "\(result.stderr)")
        let parts = result.stdout.components(separatedBy: "\r\n\r\n")
        #expect(parts.count == 3, "\(result.stdout)")
        #expect(parts[0].contains("Content-Type: text/event-stream") && parts[0].contains("Transfer-Encoding: chunked") && parts[0].contains("Cache-Control: no-cache"))
        let events = "event: tick\ndata: 1\n\nevent: tick\ndata: 2\n\nid: 7\ndata: two\ndata: lines\n\n"
        #expect(parts[1].hasPrefix(events), "\(parts[1])")
        // The second transfer's time follows its body: at least the 0.2 s before the second event.
        let seconds = try #require(Double(parts[2].dropFirst(events.count)), "\(parts[2])")
        #expect(seconds >= 0.2, "the second stream took \(seconds) s")
        #expect(server.transcript.entries.filter { if case .connected = $0.event { true } else { false } }.count == 1)
    }

    @Test("the first event arrives while the second still waits; a cut stream fails the client", .enabled(if: Tools.hasPython && Tools.hasCurl))
    func timingAndEnds() throws {
        let server = try MockServer(script: ResponseScript(json: Self.script))
        try server.start()
        defer { server.stop() }
        let first = try Tools.python("""
            import requests
            with requests.get("\(server.url(for: "/slow").absoluteString)", stream=True, timeout=10) as response:
                for line in response.iter_lines(decode_unicode=True):
                    if line:
                        print(line)
                        break
            """)
        #expect(first.stdout == "data: first\n", "\(first.stdout)\(first.stderr)")
        let cut = try Tools.curl(["-N", server.url(for: "/cut").absoluteString])
        #expect(cut.status == 18, "curl exited \(cut.status): \(cut.stderr)")
        #expect(cut.stdout.hasPrefix("whole piece\n"))
    }

    @Test("a streamed response with a body, or an end without a stream, is refused at its line and column")
    func refusals() {
        #expect {
            try ResponseScript(json: #"{"scheme": "http", "responses": {"a": {"pattern": "x", "commands": [{"response": {"body": "b", "events": [{"data": "1"}]}}]}}}"#)
        } throws: { error in
            let text = "\(error)"
            return text.contains("1:91") && text.contains("has no \"body\"")
        }
        #expect {
            try ResponseScript(json: #"{"scheme": "http", "responses": {"a": {"pattern": "x", "commands": [{"response": {"end": "cut"}}]}}}"#)
        } throws: { error in
            "\(error)".contains("\"end\" goes with \"events\" or \"chunks\"")
        }
        #expect(throws: ResponseFileError.self) {
            try ResponseScript(json: #"{"scheme": "http", "responses": {"a": {"pattern": "x", "commands": [{"response": {"events": []}}]}}}"#)
        }
    }
}
