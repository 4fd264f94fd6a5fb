import Foundation
import Testing
import TestSupport
import MockServer

/// The documented 16 KiB limit on a WebSocket opening handshake, from a raw socket: a 20 KiB head
/// gets `431` naming the limit and a closed connection, whether the blank line ends it in the same
/// write or never comes, on a WebSocket script's listener and on a stub server's upgrade; the
/// server goes on serving.
@Suite("WebSocket: the handshake's 16 KiB limit", .offPool)
struct WebSocketHandshakeLimitTests {
    private static let reason = "the opening request's head is %d bytes, longer than the 16384 bytes a WebSocket handshake may have"

    /// An opening request of `padding` bytes of header fields more than a plain one, with or without its blank line.
    private static func handshake(padding: Int, ended: Bool = true) -> [UInt8] {
        let head = "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nX-Padding: \(String(repeating: "a", count: padding))\r\n"
        return Array((head + (ended ? "\r\n" : "")).utf8)
    }

    /// Sends `bytes` on a new connection and reads the answer to its end (the server closes).
    private static func answer(_ bytes: [UInt8], port: UInt16) throws -> String {
        let client = try TestClient(port: port)
        try client.send(bytes)
        return String(decoding: try client.readToEnd(), as: UTF8.self)
    }

    private static func expectRefused(_ answer: String, length: Int) {
        #expect(answer.hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"), "\(answer.prefix(200))")
        #expect(answer.contains("Connection: close\r\n"))
        #expect(answer.hasSuffix("\r\n\r\n" + String(format: reason, length) + "\n"), "\(answer.suffix(200))")
    }

    /// A script listener reads its handshake with the strict HTTP parser, whose refusal names the
    /// limit as every HTTP listener's does.
    private static func expectRefusedByParser(_ answer: String) {
        #expect(answer.hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"), "\(answer.prefix(200))")
        #expect(answer.contains("Connection: close\r\n"))
        #expect(answer.hasSuffix("request head longer than the limit of 16384 bytes\n"), "\(answer.suffix(200))")
    }

    private static func expectOpened(_ port: UInt16, padding: Int) throws {
        let client = try TestClient(port: port)
        try client.send(handshake(padding: padding))
        #expect(try client.readLine() == "HTTP/1.1 101 Switching Protocols")
    }

    @Test("a WebSocket script's listener: 431 for 20 KiB with or without the blank line; 16 KiB exactly still opens")
    func scriptListener() throws {
        let server = try MockServer(script: ResponseScript(json: """
            {"scheme": "websocket", "path": "/ws", "responses": {"echo": {"pattern": ".*", "commands": ["$0"]}}}
            """))
        try server.start()
        defer { server.stop() }
        Self.expectRefusedByParser(try Self.answer(Self.handshake(padding: 20 * 1024), port: server.port))
        Self.expectRefusedByParser(try Self.answer(Self.handshake(padding: 20 * 1024, ended: false), port: server.port))
        let exact = 16384 - Self.handshake(padding: 0).count
        #expect(Self.handshake(padding: exact).count == 16384)
        try Self.expectOpened(server.port, padding: exact)
        try Self.expectOpened(server.port, padding: 0)
    }

    @Test("a stub server's upgrade: 431 for a 20 KiB handshake; 16 KiB exactly opens; plain requests go on")
    func stubUpgrade() async throws {
        let server = HTTPMockServer()
        server.stubRequest("GET", "/ws").andUpgradeToWebSocket { socket in for try await _ in socket.messages {} }
        server.stubRequest("GET", "/plain").andReturn(200).withBody("still here")
        try await server.start()
        defer { server.stop() }
        let whole = Self.handshake(padding: 20 * 1024)
        Self.expectRefused(try Self.answer(whole, port: server.port), length: whole.count)
        let exact = 16384 - Self.handshake(padding: 0).count
        try Self.expectOpened(server.port, padding: exact)
        let plain = try Self.answer(Array("GET /plain HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8), port: server.port)
        #expect(plain.hasPrefix("HTTP/1.1 200 ") && plain.hasSuffix("still here"), "\(plain)")
    }
}
