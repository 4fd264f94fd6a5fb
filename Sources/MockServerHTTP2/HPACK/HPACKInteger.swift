/// HPACK's integer representation (RFC 7541 §5.1): a value in the low bits of a first byte (its
/// prefix), continued in 7-bit groups, least significant first, when it does not fit.
package enum HPACKInteger {
    /// The largest value the decoder accepts: 2^32 - 1, past any length or index a block can use.
    package static let maximum = Int(UInt32.max)

    /// Appends `value` with an `prefixBits`-bit prefix; `flags` holds the first byte's bits above the prefix.
    package static func encode(_ value: Int, prefixBits: Int, flags: UInt8 = 0, into output: inout [UInt8]) {
        let limit = (1 << prefixBits) - 1
        if value < limit {
            output.append(flags | UInt8(value))
            return
        }
        output.append(flags | UInt8(limit))
        var rest = value - limit
        while rest >= 128 {
            output.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        output.append(UInt8(rest))
    }

    /// Reads an integer with an `prefixBits`-bit prefix at `offset` of `bytes`, moving `offset` past it.
    package static func decode(_ bytes: UnsafeRawBufferPointer, prefixBits: Int, offset: inout Int) throws(HPACKError) -> Int {
        guard offset < bytes.count else { throw .truncatedInteger }
        let limit = (1 << prefixBits) - 1
        var value = Int(bytes[offset]) & limit
        offset += 1
        guard value == limit else { return value }
        var shift = 0
        while true {
            guard offset < bytes.count else { throw .truncatedInteger }
            let byte = bytes[offset]
            offset += 1
            // Five 7-bit groups already hold more than 2^32: a sixth is an overflow, even a zero one.
            guard shift <= 28 else { throw .integerOverflow }
            value += Int(byte & 0x7F) << shift
            guard value <= maximum else { throw .integerOverflow }
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
    }
}
