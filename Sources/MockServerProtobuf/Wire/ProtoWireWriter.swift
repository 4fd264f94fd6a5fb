/// Writes a message's bytes: tags, varints, fixed values and length-delimited values, appended to
/// one growing array. Pure code.
package struct ProtoWireWriter {
    /// The bytes written so far.
    package private(set) var bytes: [UInt8]

    package init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// A field's tag.
    @inline(__always) package mutating func tag(_ field: Int32, _ type: ProtoWireType) {
        varint(UInt64(UInt32(bitPattern: field)) << 3 | UInt64(type.rawValue))
    }

    /// A base-128 varint (a negative int32 or int64 is written as its 64-bit two's complement: 10 bytes).
    @inline(__always) package mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// 4 little-endian bytes.
    package mutating func fixed32(_ value: UInt32) {
        for offset in 0 ..< 4 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * offset))) }
    }

    /// 8 little-endian bytes.
    package mutating func fixed64(_ value: UInt64) {
        for offset in 0 ..< 8 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * offset))) }
    }

    /// A length-delimited value: its length, then `value`.
    package mutating func lengthDelimited(_ value: some Collection<UInt8>) {
        varint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    /// Bytes as they are (a field kept unknown, already tagged).
    package mutating func raw(_ value: some Collection<UInt8>) {
        bytes.append(contentsOf: value)
    }

    /// A signed value zigzag-encoded (sint32, sint64).
    @inline(__always) package static func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }
}
