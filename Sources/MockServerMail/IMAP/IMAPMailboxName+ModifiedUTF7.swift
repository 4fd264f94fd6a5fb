/// Modified UTF-7 (RFC 3501 §5.1.3): printable ASCII stands for itself, `&` is `&-`, and any
/// other run of characters is its UTF-16 in base64 with `,` for `/`, no padding, between `&`
/// and `-`.
extension IMAPMailboxName {
    /// The modified base64 alphabet, by value.
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+,".utf8)

    /// The value of a modified base64 character, or nil.
    private static func value(of byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt32(byte - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt32(byte - UInt8(ascii: "a")) + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0")) + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: ","): 63
        default: nil
        }
    }

    /// Decodes modified UTF-7 to Unicode, refusing every form the encoder would not write.
    static func decodeModifiedUTF7(_ bytes: [UInt8]) throws(IMAPMailboxNameError) -> String {
        var scalars = String.UnicodeScalarView()
        var index = 0
        var previousRunEnd = -1
        while index < bytes.count {
            let byte = bytes[index]
            guard (0x20...0x7E).contains(byte) else { throw .nonASCII(byte: byte, position: index) }
            guard byte == UInt8(ascii: "&") else {
                scalars.append(Unicode.Scalar(byte))
                index += 1
                continue
            }
            let start = index
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
                scalars.append("&")
                index += 1
                continue
            }
            if start == previousRunEnd { throw .nonCanonical(position: start) }
            var units: [UInt16] = []
            var bits: UInt32 = 0, bitCount = 0
            while index < bytes.count, let value = value(of: bytes[index]) {
                bits = (bits << 6) | value
                bitCount += 6
                if bitCount >= 16 {
                    bitCount -= 16
                    units.append(UInt16(truncatingIfNeeded: bits >> UInt32(bitCount)))
                    bits &= (1 << UInt32(bitCount)) - 1
                }
                index += 1
            }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "-"), !units.isEmpty || bitCount > 0
            else { throw .invalidModifiedBase64(position: start) }
            guard bitCount < 6, bits == 0, !units.isEmpty else { throw .nonCanonical(position: start) }
            index += 1
            previousRunEnd = index
            var unitIndex = 0
            while unitIndex < units.count {
                let unit = units[unitIndex]
                unitIndex += 1
                if UTF16.isLeadSurrogate(unit) {
                    guard unitIndex < units.count, UTF16.isTrailSurrogate(units[unitIndex]) else {
                        throw .unpairedSurrogate(position: start)
                    }
                    let high = UInt32(unit - 0xD800), low = UInt32(units[unitIndex] - 0xDC00)
                    unitIndex += 1
                    scalars.append(Unicode.Scalar(0x10000 + (high << 10) + low)!)
                } else if UTF16.isTrailSurrogate(unit) {
                    throw .unpairedSurrogate(position: start)
                } else if (0x20...0x7E).contains(unit) {
                    throw .encodedPrintableASCII(position: start)
                } else {
                    scalars.append(Unicode.Scalar(unit)!)
                }
            }
        }
        return String(scalars)
    }

    /// Encodes Unicode as modified UTF-7, merging each run of non-ASCII characters into one.
    static func encodeModifiedUTF7(_ text: String) -> String {
        var output: [UInt8] = []
        var run: [UInt16] = []
        func flush() {
            guard !run.isEmpty else { return }
            output.append(UInt8(ascii: "&"))
            var bits: UInt32 = 0, bitCount = 0
            for unit in run {
                bits = (bits << 16) | UInt32(unit)
                bitCount += 16
                while bitCount >= 6 {
                    bitCount -= 6
                    output.append(alphabet[Int((bits >> UInt32(bitCount)) & 0x3F)])
                }
                bits &= (1 << UInt32(bitCount)) - 1
            }
            if bitCount > 0 { output.append(alphabet[Int((bits << UInt32(6 - bitCount)) & 0x3F)]) }
            output.append(UInt8(ascii: "-"))
            run.removeAll()
        }
        for scalar in text.unicodeScalars {
            if (0x20...0x7E).contains(scalar.value) {
                flush()
                output.append(UInt8(scalar.value))
                if scalar == "&" { output.append(UInt8(ascii: "-")) }
            } else {
                run.append(contentsOf: String(scalar).utf16)
            }
        }
        flush()
        return String(decoding: output, as: UTF8.self)
    }
}
