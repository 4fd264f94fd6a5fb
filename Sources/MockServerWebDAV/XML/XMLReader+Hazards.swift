extension XMLReader {
    /// Why `bytes` cannot be handed to Foundation's `XMLParser`, if they cannot: a processing
    /// instruction without data, or a body that is neither UTF-8 nor UTF-16 (or UTF-32), whatever
    /// encoding it declares (RFC 4918 asks for UTF-8 and UTF-16 only). On Linux the parser traps on a
    /// name that is not UTF-8: `<\u{CA}\u{CA}/>`, five bytes, ended the process, and so did such a
    /// name after a declaration of ISO-8859-1 the parser did not take (`version="1.0$"`).
    static func hazard(_ bytes: [UInt8]) -> String? {
        if let target = processingInstructionWithoutData(bytes) {
            return "the processing instruction <?\(target)?> has no data, which this server's XML parser cannot take"
        }
        // UTF-16 or UTF-32, with or without a byte-order mark: the parser converts those itself.
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) || bytes.prefix(2).contains(0) { return nil }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return "the XML body is not UTF-8: byte \(hex(bytes[offset])) at offset \(offset) (this server reads UTF-8 and UTF-16)"
            }
        }
    }

    /// The target of the first `<?target?>` in `bytes`: a processing instruction without data, on
    /// which Foundation's parser reads a null pointer on Linux (`<a><?pi?></a>` ended the process).
    private static func processingInstructionWithoutData(_ bytes: [UInt8]) -> String? {
        var index = 0
        while index + 1 < bytes.count {
            defer { index += 1 }
            guard bytes[index] == UInt8(ascii: "<"), bytes[index + 1] == UInt8(ascii: "?") else { continue }
            var end = index + 2
            while end < bytes.count, ![0x20, 0x09, 0x0D, 0x0A, UInt8(ascii: "?")].contains(bytes[end]) { end += 1 }
            if end > index + 2, bytes[end...].starts(with: [UInt8(ascii: "?"), UInt8(ascii: ">")]) {
                return String(decoding: bytes[(index + 2)..<end].prefix(40), as: UTF8.self)
            }
        }
        return nil
    }
}
