/// Quoted-printable (RFC 2045 §6.7; RFC 2047's Q encoding with `header`), read as Python's
/// `binascii.a2b_qp` reads it: `=` at a line's end is a soft break (`=\r\n`, `=\n`), `=XX` a byte (hex
/// digits in either case), and a bad escape is left as written (`=` and what follows, unchanged); in
/// a header, `_` is a space.
package enum MIMEQuotedPrintable {
    /// The bytes `encoded` stands for.
    package static func decode(_ encoded: UnsafeRawBufferPointer, header: Bool = false) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(encoded.count)
        let count = encoded.count
        var index = 0
        while index < count {
            let byte = encoded[index]
            if byte == UInt8(ascii: "=") {
                index += 1
                guard index < count else { break }
                let next = encoded[index]
                if next == UInt8(ascii: "\n") || next == UInt8(ascii: "\r") {
                    // A soft line break: up to and past the line feed.
                    while index < count, encoded[index] != UInt8(ascii: "\n") { index += 1 }
                    if index < count { index += 1 }
                } else if next == UInt8(ascii: "=") {
                    output.append(next)
                    index += 1
                } else if index + 1 < count, let high = hexValue(next), let low = hexValue(encoded[index + 1]) {
                    output.append(high << 4 | low)
                    index += 2
                } else {
                    output.append(byte)
                }
            } else if header, byte == UInt8(ascii: "_") {
                output.append(UInt8(ascii: " "))
                index += 1
            } else {
                output.append(byte)
                index += 1
            }
        }
        return output
    }

    /// The value of a hex digit (either case).
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
