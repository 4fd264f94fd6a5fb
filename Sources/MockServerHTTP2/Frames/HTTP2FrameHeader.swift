/// The nine bytes before every frame's payload (RFC 9113 §4.1): a 24-bit length, the type, the
/// flags, and a 31-bit stream identifier (the reserved bit is ignored on reading, zero on writing).
package struct HTTP2FrameHeader: Hashable, Sendable {
    package static let size = 9

    package var length: Int
    package var type: HTTP2FrameType
    package var flags: HTTP2FrameFlags
    package var streamID: UInt32

    package init(length: Int, type: HTTP2FrameType, flags: HTTP2FrameFlags = [], streamID: UInt32) {
        self.length = length
        self.type = type
        self.flags = flags
        self.streamID = streamID
    }

    /// Reads a header from the first nine bytes of `bytes`, which has at least that many.
    package init(_ bytes: UnsafeRawBufferPointer) {
        length = Int(bytes[0]) << 16 | Int(bytes[1]) << 8 | Int(bytes[2])
        type = HTTP2FrameType(rawValue: bytes[3])
        flags = HTTP2FrameFlags(rawValue: bytes[4])
        streamID = HTTP2Bytes.uint32(bytes, at: 5) & 0x7FFF_FFFF
    }

    /// Appends the nine bytes to `output`.
    package func write(into output: inout [UInt8]) {
        let offset = output.count
        output.append(contentsOf: repeatElement(0, count: Self.size))
        write(into: &output, at: offset)
    }

    /// Writes the nine bytes over `output[offset..<offset + 9]` (a place kept for them).
    package func write(into output: inout [UInt8], at offset: Int) {
        output[offset] = UInt8(truncatingIfNeeded: length >> 16)
        output[offset + 1] = UInt8(truncatingIfNeeded: length >> 8)
        output[offset + 2] = UInt8(truncatingIfNeeded: length)
        output[offset + 3] = type.rawValue
        output[offset + 4] = flags.rawValue
        let stream = streamID & 0x7FFF_FFFF
        output[offset + 5] = UInt8(truncatingIfNeeded: stream >> 24)
        output[offset + 6] = UInt8(truncatingIfNeeded: stream >> 16)
        output[offset + 7] = UInt8(truncatingIfNeeded: stream >> 8)
        output[offset + 8] = UInt8(truncatingIfNeeded: stream)
    }
}
