/// What a WebSocket frame carries (RFC 6455, section 5.2).
package enum WebSocketOpcode: UInt8, Sendable, Hashable {
    /// The next fragment of a message begun by a text or binary frame.
    case continuation = 0x0
    /// A text message (UTF-8), or its first fragment.
    case text = 0x1
    /// A binary message, or its first fragment.
    case binary = 0x2
    /// The close handshake: an optional status code and reason.
    case close = 0x8
    /// A ping, which the other side answers with a pong carrying the same bytes.
    case ping = 0x9
    /// A pong: a ping's answer, or an unasked heartbeat.
    case pong = 0xA

    /// Whether frames of this kind are control frames (close, ping, pong): never fragmented, at most
    /// 125 bytes of payload, allowed between the fragments of a message.
    package var isControl: Bool { rawValue & 0x8 != 0 }
}
