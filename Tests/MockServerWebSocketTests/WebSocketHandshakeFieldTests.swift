import Foundation
import Testing
import TestSupport
import MockServer

/// The opening handshake's fields from a raw socket, on a WebSocket script's listener: a request
/// RFC 6455 forbids is refused with its status and the field named, and the server serves on.
@Suite("WebSocket: the handshake's fields", .offPool)
struct WebSocketHandshakeFieldTests {
    private static let key = "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=="

    /// Sends an opening request with `fields` on a new connection and reads the answer's head, or
    /// the whole answer when the server closes.
    private static func answer(_ fields: [String], port: UInt16) throws -> String {
        let client = try TestClient(port: port)
        let head = "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" + fields.map { $0 + "\r\n" }.joined() + "\r\n"
        try client.send(Array(head.utf8))
        let status = try client.readLine()
        if status.contains(" 101 ") { return status }
        return status + "\r\n" + String(decoding: try client.readToEnd(), as: UTF8.self)
    }

    @Test("two Sec-WebSocket-Key fields (RFC 6455 11.3.1), equal or not, are 400 naming the field; one opens")
    func twoKeys() throws {
        let server = try MockServer(script: ResponseScript(json: """
            {"scheme": "websocket", "path": "/ws", "responses": {"echo": {"pattern": ".*", "commands": ["$0"]}}}
            """))
        try server.start()
        defer { server.stop() }
        for fields in [[Self.key, Self.key, "Sec-WebSocket-Version: 13"], [Self.key, "sec-websocket-key: AAAAAAAAAAAAAAAAAAAAAA==", "Sec-WebSocket-Version: 13"]] {
            let answer = try Self.answer(fields, port: server.port)
            #expect(answer.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), "\(answer)")
            #expect(answer.contains("Connection: close\r\n"), "\(answer)")
            #expect(answer.hasSuffix("\r\n\r\n2 Sec-WebSocket-Key header fields; a handshake has one\n"), "\(answer)")
        }
        #expect(try Self.answer([Self.key, "Sec-WebSocket-Version: 13"], port: server.port) == "HTTP/1.1 101 Switching Protocols")
    }
}
