import MockServerCore

/// The base64 of `application/grpc-web-text` (RFC 4648's standard alphabet, with `=` padding). A
/// sender may pad each piece it writes, so a body is one or more padded pieces end to end: `AAA=`
/// followed by `AAAA` is two pieces, read as one run of bytes. Pure code.
package enum GRPCWebText {
    /// The padding character.
    private static let pad = UInt8(ascii: "=")

    /// `bytes` in base64, padded: the text of one answer chunk (Core's one encoder).
    package static func encode(_ bytes: [UInt8]) -> [UInt8] {
        Array(Base64.encode(bytes).utf8)
    }

    /// The bytes of `text`, one or more padded pieces end to end.
    ///
    /// - Throws: ``GRPCWebTextError`` naming the offset of the first character that is not base64,
    ///   of padding where data must be, or the length of an incomplete last group.
    package static func decode(_ text: [UInt8]) throws(GRPCWebTextError) -> [UInt8] {
        guard text.count % 4 == 0 else { throw .incompleteGroup(length: text.count) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 4 * 3)
        var start = text.startIndex
        while start < text.endIndex {
            var group = 0
            var padding = 0
            for offset in start ..< start + 4 {
                let character = text[offset]
                if character == pad {
                    // `=` only in the last two places, and after it only `=`.
                    guard offset - start >= 2 else { throw .misplacedPadding(offset: offset) }
                    padding += 1
                    group <<= 6
                    continue
                }
                guard padding == 0 else { throw .misplacedPadding(offset: offset - 1) }
                guard let value = Self.value(of: character) else { throw .notBase64(offset: offset, byte: character) }
                group = group << 6 | value
            }
            for position in 0 ..< 3 - padding { bytes.append(UInt8(group >> (16 - 8 * position) & 0xFF)) }
            start += 4
        }
        return bytes
    }

    /// The 6-bit value of a base64 character, or `nil` for any other byte.
    private static func value(of character: UInt8) -> Int? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(character - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(character - UInt8(ascii: "a")) + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(character - UInt8(ascii: "0")) + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
