/// Reads a message's bytes field by field: a tag, then its value as the tag's wire type says. Pure
/// code over a byte array and an index; every read checks the end, so no input traps it.
package struct ProtoWireReader {
    /// The bytes.
    package let bytes: [UInt8]
    /// The next byte to read.
    package private(set) var index: Int
    /// Where this reader's part of `bytes` ends (a nested message's reader ends at its length).
    package let end: Int

    /// A reader of `bytes[range]` (all of them by default).
    package init(_ bytes: [UInt8], range: Range<Int>? = nil) {
        self.bytes = bytes
        let range = range ?? bytes.startIndex ..< bytes.endIndex
        index = range.lowerBound
        end = range.upperBound
    }

    /// Whether every byte was read.
    package var isAtEnd: Bool { index >= end }

    /// The next field's number and wire type, or `nil` at the end.
    package mutating func tag() throws(ProtoWireError) -> (field: Int32, type: ProtoWireType)? {
        guard index < end else { return nil }
        let start = index
        let key = try varint()
        guard let type = ProtoWireType(rawValue: UInt8(key & 7)) else { throw ProtoWireError(.invalidWireType(UInt8(key & 7)), at: start) }
        let number = key >> 3
        guard number >= 1, number <= 0x1FFF_FFFF else { throw ProtoWireError(.invalidFieldNumber(number), at: start) }
        return (Int32(number), type)
    }

    /// A base-128 varint.
    package mutating func varint() throws(ProtoWireError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        let start = index
        while true {
            guard index < end else { throw ProtoWireError(.truncated, at: start) }
            let byte = bytes[index]
            index += 1
            guard shift < 64 else { throw ProtoWireError(.varintTooLong, at: start) }
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
    }

    /// 4 little-endian bytes.
    package mutating func fixed32() throws(ProtoWireError) -> UInt32 {
        guard end - index >= 4 else { throw ProtoWireError(.truncated, at: index) }
        var value: UInt32 = 0
        for offset in 0 ..< 4 { value |= UInt32(bytes[index + offset]) << (8 * offset) }
        index += 4
        return value
    }

    /// 8 little-endian bytes.
    package mutating func fixed64() throws(ProtoWireError) -> UInt64 {
        guard end - index >= 8 else { throw ProtoWireError(.truncated, at: index) }
        var value: UInt64 = 0
        for offset in 0 ..< 8 { value |= UInt64(bytes[index + offset]) << (8 * offset) }
        index += 8
        return value
    }

    /// A length-delimited value's range in ``bytes`` (read past it).
    package mutating func lengthDelimited() throws(ProtoWireError) -> Range<Int> {
        let start = index
        let length = try varint()
        guard length <= UInt64(end - index) else { throw ProtoWireError(.truncated, at: start) }
        let range = index ..< index + Int(length)
        index = range.upperBound
        return range
    }

    /// Skips the value of a field of wire type `type` whose tag was just read (a group up to its
    /// end, groups inside it too, at most `depth` deep), and returns the range it covered.
    package mutating func skip(_ type: ProtoWireType, field: Int32, depth: Int = 100) throws(ProtoWireError) -> Range<Int> {
        let start = index
        switch type {
        case .varint: _ = try varint()
        case .fixed64: _ = try fixed64()
        case .fixed32: _ = try fixed32()
        case .lengthDelimited: _ = try lengthDelimited()
        case .startGroup:
            guard depth > 0 else { throw ProtoWireError(.tooDeep(limit: 100), at: start) }
            while true {
                guard let (number, inner) = try tag() else { throw ProtoWireError(.unbalancedGroup(field: field), at: start) }
                if inner == .endGroup {
                    guard number == field else { throw ProtoWireError(.unbalancedGroup(field: field), at: index) }
                    break
                }
                _ = try skip(inner, field: number, depth: depth - 1)
            }
        case .endGroup: throw ProtoWireError(.unbalancedGroup(field: field), at: start)
        }
        return start ..< index
    }

    /// A zigzag-encoded value's signed value (sint32, sint64).
    @inline(__always) package static func zigzag(_ value: UInt64) -> Int64 {
        Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
    }
}
