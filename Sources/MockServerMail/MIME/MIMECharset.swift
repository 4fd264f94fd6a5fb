/// Text from bytes in a MIME charset: UTF-8, US-ASCII, ISO-8859-1 to 16, Windows-1250 to 1258 and
/// KOI8-R/U, by any of the names Python's codecs take for them (`latin1`, `iso8859_2`, `cp1252`, …).
/// Never fails: bytes a charset does not define become U+FFFD, and an unknown charset reads as UTF-8
/// when the bytes are valid UTF-8, else as ISO-8859-1.
package enum MIMECharset {
    /// The charset's name in one spelling (`iso-8859-2`, `windows-1252`, `utf-8`), lowercased, from
    /// the spellings mail and Python's codecs use.
    package static func normalized(_ name: String) -> String {
        var text = name.lowercased().trimmingMIMESpaces
        text = text.replacingOccurrences(of: "_", with: "-")
        if text.hasPrefix("x-") { text.removeFirst(2) }
        switch text {
        case "utf8", "utf-8": return "utf-8"
        case "ascii", "us-ascii", "ansi-x3.4-1968", "646", "us": return "us-ascii"
        case "latin1", "latin-1", "l1", "iso8859-1", "iso-8859-1", "iso-ir-100", "cp819": return "iso-8859-1"
        case "latin2", "latin-2", "l2": return "iso-8859-2"
        case "latin9", "latin-9", "l9": return "iso-8859-15"
        default: break
        }
        if text.hasPrefix("iso8859-") { return "iso-" + text.dropFirst(3) }
        if text.hasPrefix("iso-8859-") { return text }
        if text.hasPrefix("cp125"), text.count == 6 { return "windows-" + text.dropFirst(2) }
        if text.hasPrefix("windows-") || text.hasPrefix("koi8-") { return text }
        return text
    }

    /// The text of `bytes` in `charset` (nil: not declared, read as an unknown charset is).
    package static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes, charset: String?) -> String {
        switch charset.map(normalized) {
        case "utf-8"?, "us-ascii"?:
            return String(decoding: bytes, as: UTF8.self)
        case "iso-8859-1"?:
            return latin1(bytes)
        case let name?:
            if let table = MIMECharsetTables.upperHalf(of: name) { return singleByte(bytes, table: table) }
            return fallback(bytes)
        case nil:
            return fallback(bytes)
        }
    }

    /// Whether `name` is a charset this type reads (rather than falling back).
    package static func isKnown(_ name: String) -> Bool {
        let name = normalized(name)
        return name == "utf-8" || name == "us-ascii" || name == "iso-8859-1" || MIMECharsetTables.upperHalf(of: name) != nil
    }

    /// UTF-8 when the bytes are valid UTF-8, else ISO-8859-1.
    static func fallback<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        if let text = String(bytes: bytes, encoding: .utf8) { return text }
        return latin1(bytes)
    }

    static func latin1<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.reserveCapacity(bytes.count)
        for byte in bytes { scalars.append(Unicode.Scalar(byte)) }
        return String(scalars)
    }

    static func singleByte<Bytes: Collection<UInt8>>(_ bytes: Bytes, table: [UInt16]) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.reserveCapacity(bytes.count)
        for byte in bytes {
            let value = byte < 0x80 ? UInt32(byte) : UInt32(table[Int(byte) - 0x80])
            scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
        }
        return String(scalars)
    }
}
