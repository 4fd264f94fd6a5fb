/// `%XX` escapes (RFC 3986), the one codec of paths, queries, forms and file names.
package enum PercentCoding {
    /// What ``decode(_:plusAsSpace:strict:)`` does with a `%` not followed by two hexadecimal digits.
    package enum Strictness {
        /// Keeps it as written (a query or form from a lenient client).
        case lenient
        /// Fails the decoding (a path that must name one file).
        case strict
    }

    /// The bytes `text` stands for, with each `%XX` replaced by its byte and, with `plusAsSpace`
    /// (forms and queries), `+` by a space; `nil` when `strictness` is ``Strictness/strict`` and an
    /// escape is malformed.
    package static func decode<Bytes: Collection<UInt8>>(_ text: Bytes, plusAsSpace: Bool = false,
                                                         strictness: Strictness = .lenient) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        var index = text.startIndex
        while index < text.endIndex {
            let byte = text[index]
            text.formIndex(after: &index)
            if byte == UInt8(ascii: "%") {
                if index < text.endIndex, let high = hexValue(text[index]) {
                    let next = text.index(after: index)
                    if next < text.endIndex, let low = hexValue(text[next]) {
                        bytes.append(high << 4 | low)
                        index = text.index(after: next)
                        continue
                    }
                }
                if strictness == .strict { return nil }
                bytes.append(byte)
            } else if plusAsSpace && byte == UInt8(ascii: "+") {
                bytes.append(0x20)
            } else {
                bytes.append(byte)
            }
        }
        return bytes
    }

    /// `bytes` as text, with `%XX` (upper-case digits) for every byte that `allowed` says must be escaped.
    package static func encode<Bytes: Sequence<UInt8>>(_ bytes: Bytes, keeping allowed: (UInt8) -> Bool) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.underestimatedCount)
        for byte in bytes {
            if allowed(byte) {
                output.append(byte)
            } else {
                output += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
