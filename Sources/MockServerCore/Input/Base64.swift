/// Base64 (RFC 4648) without Foundation, for the layers that do without it (gRPC's binary metadata,
/// protobuf's `bytes` in JSON): encoding with the standard alphabet and padding, decoding either
/// alphabet (`+/` or the URL-safe `-_`) with or without padding. Pure code.
package enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// `bytes` in the standard alphabet, padded with `=` to a multiple of 4.
    package static func encode(_ bytes: some Collection<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next()
            let third = iterator.next()
            let group = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            out.append(alphabet[Int(group >> 18 & 63)])
            out.append(alphabet[Int(group >> 12 & 63)])
            out.append(second == nil ? 0x3D : alphabet[Int(group >> 6 & 63)])
            out.append(third == nil ? 0x3D : alphabet[Int(group & 63)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes `text` encodes, in either alphabet, padded or not; `nil` when it is not base64
    /// (a character of neither alphabet, padding inside the text, a length no encoding has).
    package static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var values: [UInt8] = []
        values.reserveCapacity(text.utf8.count)
        var padding = 0
        for byte in text.utf8 {
            if byte == 0x3D {
                padding += 1
                continue
            }
            guard padding == 0, let value = sextet(byte) else { return nil }
            values.append(value)
        }
        let total = values.count + padding
        guard padding <= 2, padding == 0 || total % 4 == 0, values.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(values.count * 3 / 4)
        var index = 0
        while index < values.count {
            let left = values.count - index
            let a = UInt32(values[index]), b = UInt32(values[index + 1])
            let c = left > 2 ? UInt32(values[index + 2]) : 0
            let d = left > 3 ? UInt32(values[index + 3]) : 0
            let group = a << 18 | b << 12 | c << 6 | d
            out.append(UInt8(group >> 16 & 0xFF))
            if left > 2 { out.append(UInt8(group >> 8 & 0xFF)) }
            if left > 3 { out.append(UInt8(group & 0xFF)) }
            index += 4
        }
        return out
    }

    private static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x41...0x5A: byte - 0x41
        case 0x61...0x7A: byte - 0x61 + 26
        case 0x30...0x39: byte - 0x30 + 52
        case 0x2B, 0x2D: 62
        case 0x2F, 0x5F: 63
        default: nil
        }
    }
}
