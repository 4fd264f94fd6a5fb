/// Puts the fragments of a peer's messages together (RFC 6455, section 5.4) and checks what a
/// message must be: a continuation only inside a message, no new message inside one, control frames
/// allowed between fragments, text that is UTF-8 (1007), and no message longer than the server
/// takes (1009). Close frames are checked too (section 7.4): a code the RFC allows, a UTF-8 reason.
package struct WebSocketMessageAssembler: Sendable {
    /// The longest message, all fragments together.
    package let maximumMessageLength: Int
    /// The kind of the message being put together, and its bytes so far.
    private var partial: (opcode: WebSocketOpcode, bytes: [UInt8])?

    /// An assembler taking messages of at most `maximumMessageLength` bytes (a negative limit is 0).
    package init(maximumMessageLength: Int) {
        self.maximumMessageLength = max(0, maximumMessageLength)
    }

    /// Whether a fragmented message has begun and not ended.
    package var isInsideMessage: Bool { partial != nil }

    /// What `frame` completes, if anything.
    ///
    /// - Throws: ``WebSocketProtocolError`` with the close code the connection must fail with.
    package mutating func take(_ frame: WebSocketFrame) throws(WebSocketProtocolError) -> WebSocketEvent? {
        // The parser only returns frames of known opcodes.
        let opcode = WebSocketOpcode(rawValue: frame.opcode) ?? .continuation
        switch opcode {
        case .ping: return .ping(frame.payload)
        case .pong: return .pong(frame.payload)
        case .close: return try Self.close(frame.payload)
        case .text, .binary:
            guard partial == nil else {
                throw WebSocketProtocolError(.protocolError, "a new \(opcode) message began before the fragmented one before it ended")
            }
            guard frame.payload.count <= maximumMessageLength else {
                throw WebSocketProtocolError(.messageTooBig, "a message of \(frame.payload.count) bytes is longer than the \(maximumMessageLength) this server takes")
            }
            if frame.fin { return try Self.message(opcode, frame.payload) }
            partial = (opcode, frame.payload)
            return nil
        case .continuation:
            guard var message = partial else {
                throw WebSocketProtocolError(.protocolError, "a continuation frame came with no fragmented message to continue")
            }
            // The room left, compared before adding: the sum is never formed past the limit.
            guard frame.payload.count <= maximumMessageLength - message.bytes.count else {
                partial = nil
                throw WebSocketProtocolError(.messageTooBig, "a fragmented message grew past the \(maximumMessageLength) bytes this server takes")
            }
            partial = nil
            message.bytes += frame.payload
            if frame.fin { return try Self.message(message.opcode, message.bytes) }
            partial = message
            return nil
        }
    }

    private static func message(_ opcode: WebSocketOpcode, _ bytes: [UInt8]) throws(WebSocketProtocolError) -> WebSocketEvent {
        guard opcode == .text else { return .message(.binary(bytes)) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw WebSocketProtocolError(.invalidPayload, "a text message of \(bytes.count) bytes is not UTF-8")
        }
        return .message(.text(text))
    }

    private static func close(_ payload: [UInt8]) throws(WebSocketProtocolError) -> WebSocketEvent {
        if payload.isEmpty { return .close(nil, reason: "") }
        guard payload.count >= 2 else {
            throw WebSocketProtocolError(.protocolError, "a close frame's payload of 1 byte cannot hold a status code")
        }
        let code = WebSocketConnection.CloseCode(rawValue: UInt16(payload[0]) << 8 | UInt16(payload[1]))
        guard code.isAllowedOnWire else {
            throw WebSocketProtocolError(.protocolError, "close code \(code) may not be sent in a close frame")
        }
        guard let reason = String(validating: payload[2...], as: UTF8.self) else {
            throw WebSocketProtocolError(.invalidPayload, "a close frame's reason is not UTF-8")
        }
        return .close(code, reason: reason)
    }
}
