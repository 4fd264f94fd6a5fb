import Foundation
import Testing
import TestSupport
import MockServer

private typealias F = HTTP2RawClient

/// HTTP/2 request bodies meet HTTP/1.1's limit (`maximumRequestBodySize`): a stream whose body passes
/// it is answered `413 Content Too Large` at once, the rest of its body is read and dropped (its
/// window still given back), and the connection's other streams go on. The bodies one connection
/// holds together meet it too, as an HTTP/1.1 connection holds one at a time: the stream whose bytes
/// would pass it is refused (413, or RST_STREAM `ENHANCE_YOUR_CALM` for a gRPC call answered as it
/// streams, which replied already).
@Suite("HTTP/2 request body limit", .offPool)
struct HTTP2BodyLimitTests {
    private static let script = #"{"scheme": "http", "responses": {"any": {"pattern": "^[A-Z]+ /", "commands": [{"response": {"body": "ok\n"}}]}}}"#

    private static func post(_ stream: UInt32, _ more: [(String, String)] = []) -> [UInt8] {
        F.headers(stream, [(":method", "POST"), (":scheme", "http"), (":path", "/up"), (":authority", "localhost")] + more, endStream: false)
    }

    private static func data(_ stream: UInt32, _ count: Int, end: Bool = false) -> [UInt8] {
        F.frame(.data, flags: end ? 0x1 : 0, stream: stream, [UInt8](repeating: 0x61, count: count))
    }

    /// A started server of ``script`` whose body limit is 100 bytes.
    private static func server() async throws -> MockServer {
        var configuration = MockServer.Configuration()
        configuration.settings[MockServer.HTTPServerSettings.self, default: .init()].maximumRequestBodySize = 100
        let server = try MockServer(script: ResponseScript(json: script), configuration: configuration)
        try await server.start()
        return server
    }

    @Test("a body just at the limit is served; one byte past it gets 413 naming the setting, and the stream's later DATA and the next stream are still taken")
    func bodyLimit() async throws {
        let server = try await Self.server()
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

    @Test("the bodies a connection holds together: the stream that would pass the limit gets 413 naming them; answered bodies count no more")
    func heldTogether() async throws {
        let server = try await Self.server()
        defer { server.stop() }
        let client = try HTTP2RawClient(port: server.port)
        let lines = try client.exchange([
            F.preface + Self.post(1) + Self.data(1, 60),
            // With its length given: still 413 (the refusal's head is not checked against the dropped body).
            Self.post(3, [("content-length", "41")]) + Self.data(3, 41),
            Self.data(1, 40, end: true),
            Self.post(5) + Self.data(5, 100, end: true),
            // A body the client resets counts no more either (CANCEL).
            Self.post(7) + Self.data(7, 60) + F.frame(.rstStream, stream: 7, F.uint32(8)) + Self.post(9) + Self.data(9, 100, end: true),
        ])
        let shown = lines.map { $0.hasPrefix("DATA 3 ") && $0.hasSuffix(" END_STREAM") ? "DATA 3 (text) END_STREAM" : $0 }
        #expect(shown == ["PING ACK",
                          "HEADERS 3 413", "DATA 3 (text) END_STREAM", "PING ACK",
                          "HEADERS 1 200", "DATA 1 3 END_STREAM", "PING ACK",
                          "HEADERS 5 200", "DATA 5 3 END_STREAM", "PING ACK",
                          "HEADERS 9 200", "DATA 9 3 END_STREAM", "PING ACK"])
        let refusal = try await server.transcript.wait(for: "the refusal", timeout: .seconds(10)) { entry in
            if case .output(let bytes) = entry.event, entry.exchange?.stream == 3 { return String(decoding: bytes, as: UTF8.self).contains("maximumRequestBodySize") }
            return false
        }
        guard case .output(let bytes) = refusal.event else { return }
        #expect(String(decoding: bytes, as: UTF8.self).contains("request bodies an HTTP/2 connection holds together longer than the limit of 100 bytes"))
    }

    @Test("a gRPC call answered as it streams: the start of a message it holds counts; the stream that would pass the limit is reset ENHANCE_YOUR_CALM, the other goes on")
    func heldByStreamingCalls() async throws {
        let directory = try Tools.temporaryDirectory()
        try Data(#"syntax = "proto3"; package t; service S { rpc Up(stream Blob) returns (Count); } message Blob { bytes data = 1; } message Count { int32 n = 1; }"#.utf8)
            .write(to: directory.appendingPathComponent("t.proto"))
        var configuration = MockServer.Configuration()
        configuration.settings[MockServer.HTTPServerSettings.self, default: .init()].maximumRequestBodySize = 100
        let server = HTTPMockServer(configuration: configuration)
        try server.loadProtos(["t.proto"], protoPaths: [directory.path])
        try server.addEndpoints(json: Array(#"{"endpoints": [{"api": "post /t.S/Up", "response": {"grpc": {"each": [{"messages": [{"json": {"n": 1}}]}], "status": 0}}}]}"#.utf8))
        try await server.start()
        defer { server.stop() }
        func call(_ stream: UInt32) -> [UInt8] {
            F.headers(stream, [(":method", "POST"), (":scheme", "http"), (":path", "/t.S/Up"), (":authority", "localhost"),
                               ("content-type", "application/grpc"), ("te", "trailers")], endStream: false)
        }
        // One Blob of 78 bytes: an 80-byte message, 85 bytes framed; each stream sends 55 of them first.
        let message: [UInt8] = [0, 0, 0, 0, 80, 0x0A, 78] + [UInt8](repeating: 0x62, count: 78)
        let client = try HTTP2RawClient(port: server.port)
        let lines = try client.exchange([
            F.preface + call(1) + F.frame(.data, stream: 1, Array(message[..<55])),
            call(3) + F.frame(.data, stream: 3, Array(message[..<55])),
            F.frame(.data, flags: F.endStream, stream: 1, Array(message[55...])),
        ])
        #expect(lines.contains("RST_STREAM 3 ENHANCE_YOUR_CALM"), "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("RST_STREAM 1") }, "\(lines)")
        #expect(lines.contains("DATA 1 7"), "the answer to stream 1's message: \(lines)")
        #expect(lines.contains("HEADERS 1 0 END_STREAM"), "its status, 0: \(lines)")
    }
}
