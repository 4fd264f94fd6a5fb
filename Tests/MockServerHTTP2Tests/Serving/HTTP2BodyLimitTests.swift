import Foundation
import Testing
import TestSupport
import MockServer

private typealias F = HTTP2RawClient

/// HTTP/2 request bodies meet HTTP/1.1's limit (`maximumRequestBodySize`): a stream whose body passes
/// it is answered `413 Content Too Large` at once, the rest of its body is read and dropped (its
/// window still given back), and the connection's other streams go on.
@Suite("HTTP/2 request body limit", .offPool)
struct HTTP2BodyLimitTests {
    private static let script = #"{"scheme": "http", "responses": {"any": {"pattern": "^[A-Z]+ /", "commands": [{"response": {"body": "ok\n"}}]}}}"#

    private static func post(_ stream: UInt32) -> [UInt8] {
        F.headers(stream, [(":method", "POST"), (":scheme", "http"), (":path", "/up"), (":authority", "localhost")], endStream: false)
    }

    private static func data(_ stream: UInt32, _ count: Int, end: Bool = false) -> [UInt8] {
        F.frame(.data, flags: end ? 0x1 : 0, stream: stream, [UInt8](repeating: 0x61, count: count))
    }

    @Test("a body just at the limit is served; one byte past it gets 413 naming the setting, and the stream's later DATA and the next stream are still taken")
    func bodyLimit() async throws {
        var configuration = MockServer.Configuration()
        configuration.settings[MockServer.HTTPServerSettings.self, default: .init()].maximumRequestBodySize = 100
        let server = try MockServer(script: ResponseScript(json: Self.script), configuration: configuration)
        try await server.start()
        defer { server.stop() }
        let client = try HTTP2RawClient(port: server.port)
        let lines = try client.exchange([
            F.preface + Self.post(1) + Self.data(1, 60) + Self.data(1, 40, end: true),
            Self.post(3) + Self.data(3, 60) + Self.data(3, 41),
            Self.data(3, 500, end: true) + Self.post(5) + Self.data(5, 10, end: true),
        ])
        // The refusal's text is HTTP/1.1's (its length is not this test's subject).
        let shown = lines.map { $0.hasPrefix("DATA 3 ") && $0.hasSuffix(" END_STREAM") ? "DATA 3 (text) END_STREAM" : $0 }
        #expect(shown == ["HEADERS 1 200", "DATA 1 3 END_STREAM", "PING ACK",
                          "HEADERS 3 413", "DATA 3 (text) END_STREAM", "PING ACK",
                          "HEADERS 5 200", "DATA 5 3 END_STREAM", "PING ACK"])
        let refused = try await server.transcript.wait(for: "the refused request", timeout: .seconds(10)) { entry in
            if case .output(let bytes) = entry.event, entry.exchange?.stream == 3 { return String(decoding: bytes, as: UTF8.self).contains("maximumRequestBodySize") }
            return false
        }
        #expect(refused.exchange?.stream == 3)
    }
}
