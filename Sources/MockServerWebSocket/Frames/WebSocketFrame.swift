/// One WebSocket frame (RFC 6455, section 5.2), as read from a peer or to be written.
package struct WebSocketFrame: Sendable, Hashable {
    /// Whether this is the last (or only) frame of its message.
    package var fin: Bool
    /// The three reserved bits (RSV1–RSV3), as a number from 0 to 7; non-zero only when an
    /// extension says so, and MockServer negotiates none.
    package var reserved: UInt8
    /// What the frame carries.
    package var opcode: UInt8
    /// The payload, unmasked.
    package var payload: [UInt8]

    package init(fin: Bool = true, reserved: UInt8 = 0, opcode: UInt8, payload: [UInt8]) {
        self.fin = fin
        self.reserved = reserved
        self.opcode = opcode
        self.payload = payload
    }

    package init(fin: Bool = true, opcode: WebSocketOpcode, payload: [UInt8]) {
        self.init(fin: fin, opcode: opcode.rawValue, payload: payload)
    }

    /// A close frame with `code` and `reason` (cut at a character boundary to the 123 bytes a
    /// control frame leaves it); no payload without a code.
    package static func close(_ code: WebSocketConnection.CloseCode?, reason: String = "") -> WebSocketFrame {
        guard let code else { return WebSocketFrame(opcode: .close, payload: []) }
        var reasonBytes = Array(reason.utf8)
        if reasonBytes.count > 123 {
            var cut = 123
            // Back off to the start of a UTF-8 sequence.
            while cut > 0 && reasonBytes[cut] & 0xC0 == 0x80 { cut -= 1 }
            reasonBytes = Array(reasonBytes[..<cut])
        }
        return WebSocketFrame(opcode: .close, payload: [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)] + reasonBytes)
    }

    /// The frame's bytes: masked with `mask` (a client's frame), unmasked without (a server's).
    package func encoded(mask: [UInt8]? = nil) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(payload.count + 14)
        bytes.append((fin ? 0x80 : 0) | (reserved & 0x7) << 4 | (opcode & 0xF))
        let maskBit: UInt8 = mask == nil ? 0 : 0x80
        switch payload.count {
        case ..<126:
            bytes.append(maskBit | UInt8(payload.count))
        case ..<65536:
            bytes.append(maskBit | 126)
            bytes.append(UInt8(payload.count >> 8))
            bytes.append(UInt8(payload.count & 0xFF))
        default:
            bytes.append(maskBit | 127)
            let length = UInt64(payload.count)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: length >> UInt64(shift))) }
        }
        if let mask {
            bytes += mask
            for (index, byte) in payload.enumerated() { bytes.append(byte ^ mask[index & 3]) }
        } else {
            bytes += payload
        }
        return bytes
    }
}
