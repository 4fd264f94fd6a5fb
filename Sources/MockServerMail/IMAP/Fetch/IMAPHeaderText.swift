/// Header values as ENVELOPE and BODYSTRUCTURE carry them: the field's bytes after the colon,
/// unfolded, not decoded (RFC 2047 words and 8-bit bytes left as they are, as Dovecot sends them).
enum IMAPHeaderText {
    /// The value of `field` in `bytes`: the white space after the colon and at the end dropped, CR
    /// and LF removed, and a tab that starts a continuation line made a space (as Dovecot unfolds).
    static func value(of field: MIMEHeaderField, in bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var index = field.range.lowerBound
        let end = field.range.upperBound
        while index < end, bytes[index] != UInt8(ascii: ":") { index += 1 }
        index += 1
        while index < end, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
        var value: [UInt8] = []
        value.reserveCapacity(end - index)
        var afterLineBreak = false
        while index < end {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\r"):
                continue
            case UInt8(ascii: "\n"):
                afterLineBreak = true
                continue
            case UInt8(ascii: "\t") where afterLineBreak:
                value.append(UInt8(ascii: " "))
            default:
                value.append(byte)
            }
            afterLineBreak = false
        }
        while let last = value.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { value.removeLast() }
        return value
    }

    /// The value of the first field named `lowercasedName` in `headers`, nil when there is none.
    static func first(_ lowercasedName: String, of headers: MIMEHeaderSection, in bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        for field in headers.fields where field.lowercasedName == lowercasedName {
            return value(of: field, in: bytes)
        }
        return nil
    }

    /// The values of every field named `lowercasedName`, in order.
    static func all(_ lowercasedName: String, of headers: MIMEHeaderSection, in bytes: UnsafeRawBufferPointer) -> [[UInt8]] {
        headers.fields.filter { $0.lowercasedName == lowercasedName }.map { value(of: $0, in: bytes) }
    }

    /// How many LF bytes `bytes[range]` holds: the line count BODYSTRUCTURE gives.
    static func lineCount(_ bytes: UnsafeRawBufferPointer, in range: Range<Int>) -> Int {
        var count = 0
        for index in range where bytes[index] == 0x0A { count += 1 }
        return count
    }
}
