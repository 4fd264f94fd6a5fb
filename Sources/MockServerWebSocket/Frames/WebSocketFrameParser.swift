/// Cuts a client's bytes into WebSocket frames (RFC 6455, section 5.2), whatever the reads' sizes:
/// pure bytes in, frames out.
///
/// It enforces what a server must of every frame: the client's masking, no reserved bits (no
/// extension is negotiated), known opcodes, unfragmented control frames of at most 125 bytes, a
/// 64-bit length whose top bit is clear, and the largest payload the server takes, checked from
/// the header before any of the payload is kept.
package struct WebSocketFrameParser: Sendable {
    /// The longest payload a data frame may have; longer ones fail with 1009.
    package let maximumPayload: Int
    /// Whether frames must be masked (a server reading a client: yes).
    package let requiresMask: Bool
    private var buffer: [UInt8] = []
    private var start = 0

    /// A parser taking data frames of at most `maximumPayload` bytes (a negative limit is 0).
    package init(maximumPayload: Int, requiresMask: Bool = true) {
        self.maximumPayload = max(0, maximumPayload)
        self.requiresMask = requiresMask
    }

    /// Adds bytes read from the peer.
    package mutating func append(_ bytes: some Collection<UInt8>) {
        if start > 0 && start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 65536 && start * 2 > buffer.count {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Adds bytes read from the peer.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        append(bytes.bindMemory(to: UInt8.self))
    }

    /// Bytes received but not yet part of a whole frame.
    package var bufferedCount: Int { buffer.count - start }

    /// Whether a buffer is held (bytes, or an array's capacity): none once every frame read was
    /// taken and ``next()`` found no more.
    package var holdsStorage: Bool { buffer.capacity > 0 }

    /// The next whole frame, or `nil` until more bytes arrive.
    ///
    /// - Throws: ``WebSocketProtocolError`` with the close code the connection must fail with.
    package mutating func next() throws(WebSocketProtocolError) -> WebSocketFrame? {
        let available = buffer.count - start
        guard available >= 2 else {
            // Everything read was taken: the buffer goes, so that an idle connection holds none (the
            // next read makes one anew).
            if available == 0, start > 0 {
                buffer = []
                start = 0
            }
            return nil
        }
        let first = buffer[start]
        let second = buffer[start + 1]
        let fin = first & 0x80 != 0
        let reserved = (first >> 4) & 0x7
        let opcode = first & 0xF
        let masked = second & 0x80 != 0
        guard reserved == 0 else {
            throw WebSocketProtocolError(.protocolError, "reserved bits \(reserved) set, and no extension was negotiated")
        }
        guard let kind = WebSocketOpcode(rawValue: opcode) else {
            throw WebSocketProtocolError(.protocolError, "opcode \(opcode) is reserved")
        }
        if requiresMask && !masked {
            throw WebSocketProtocolError(.protocolError, "a client's frame must be masked")
        }
        var headerLength = 2
        var length = UInt64(second & 0x7F)
        if length == 126 {
            guard available >= 4 else { return nil }
            length = UInt64(buffer[start + 2]) << 8 | UInt64(buffer[start + 3])
            headerLength = 4
        } else if length == 127 {
            guard available >= 10 else { return nil }
            length = 0
            for index in 2..<10 { length = length << 8 | UInt64(buffer[start + index]) }
            guard length >> 63 == 0 else {
                throw WebSocketProtocolError(.protocolError, "a 64-bit payload length must have its top bit clear")
            }
            headerLength = 10
        }
        if kind.isControl {
            guard fin else { throw WebSocketProtocolError(.protocolError, "a control frame (\(kind)) cannot be fragmented") }
            guard length <= 125 else { throw WebSocketProtocolError(.protocolError, "a control frame (\(kind)) has \(length) bytes; at most 125 are allowed") }
        } else if length > UInt64(maximumPayload) {
            throw WebSocketProtocolError(.messageTooBig, "a frame of \(length) bytes is longer than the \(maximumPayload) this server takes")
        }
        if masked { headerLength += 4 }
        let count = Int(length)
        guard available - headerLength >= count else { return nil }
        let payloadStart = start + headerLength
        var payload = Array(buffer[payloadStart..<payloadStart + count])
        if masked {
            let maskStart = payloadStart - 4
            let mask = (buffer[maskStart], buffer[maskStart + 1], buffer[maskStart + 2], buffer[maskStart + 3])
            payload.withUnsafeMutableBufferPointer { bytes in
                for index in bytes.indices {
                    switch index & 3 {
                    case 0: bytes[index] ^= mask.0
                    case 1: bytes[index] ^= mask.1
                    case 2: bytes[index] ^= mask.2
                    default: bytes[index] ^= mask.3
                    }
                }
            }
        }
        start = payloadStart + count
        return WebSocketFrame(fin: fin, opcode: kind, payload: payload)
    }
}
