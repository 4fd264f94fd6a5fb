import Foundation
import Testing
import TestSupport
import MockServer
import MockServerAdmin
import MockServerCore

/// The admin API's transcript JSON for HTTP/2 requests: each request's entry has `protocol` and
/// `stream`, as curl's two requests on one connection (Upgrade: h2c) show; HTTP/1.1 entries have neither.
@Suite("Admin transcript of HTTP/2", .offPool)
struct AdminHTTP2TranscriptTests {
    private static let script = """
        {"scheme": "http", "responses": {"hello": {"pattern": "^GET ", "commands": [{"response": {"body": "hi\\n"}}]}}}
        """

    @Test("GET /transcript and /unmatched: HTTP/2 requests carry \"protocol\": \"HTTP/2\" and their stream; an HTTP/1.1 one neither",
          .enabled(if: Tools.hasCurl))
    func protocolAndStream() throws {
        let mock = try MockServer(script: ResponseScript(json: Self.script), configuration: .init(host: "127.0.0.1"))
        let admin = MockServer(httpResponder: try AdminResponder(.init(server: mock, shutdown: {})), configuration: .init(host: "127.0.0.1"))
        try mock.start()
        defer { mock.stop() }
        try admin.start()
        defer { admin.stop() }
        let base = "http://127.0.0.1:\(mock.port)"
        #expect(try Tools.curl(["--http2", "\(base)/a", "\(base)/b"]).stdout == "hi\nhi\n", "Upgrade: h2c, then a second stream")
        #expect(try Tools.curl(["--http1.1", "\(base)/c"]).stdout == "hi\n")
        let transcript = try Tools.curl([admin.url(for: "/transcript").absoluteString]).stdout
        let object = try JSONSerialization.jsonObject(with: Data(transcript.utf8)) as? [String: Any]
        let entries = try #require(object?["entries"] as? [[String: Any]], "\(transcript)")
        let inputs = entries.filter { $0["event"] as? String == "input" }
        #expect(inputs.map { $0["protocol"] as? String } == ["HTTP/2", "HTTP/2", nil], "\(transcript)")
        #expect(inputs.map { $0["stream"] as? Int } == [1, 3, nil], "\(transcript)")
        #expect(inputs.map { ($0["text"] as? String)?.hasSuffix("(HTTP/2 stream 3)") } == [false, true, false], "\(transcript)")
        #expect(!entries.contains { $0["event"] as? String == "http2-stream" }, "\(transcript)")
        // An unmatched HTTP/2 request is listed with its stream too.
        _ = try Tools.curl(["--http2-prior-knowledge", "-X", "POST", "\(base)/nothing"])
        let unmatched = try Tools.curl([admin.url(for: "/unmatched").absoluteString]).stdout
        #expect(unmatched.contains(#""protocol":"HTTP/2""#) && unmatched.contains(#""stream":1"#), "\(unmatched)")
    }
}
