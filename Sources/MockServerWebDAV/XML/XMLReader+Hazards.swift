extension XMLReader {
    /// The encodings other than UTF-8 and UTF-16 a body may declare: those whose every byte the
    /// parser converts to UTF-8 itself (RFC 4918 asks only for UTF-8 and UTF-16).
    private static let convertedEncodings: Set<String> = ["iso-8859-1", "iso_8859-1", "latin1", "us-ascii", "ascii"]

    /// Why `bytes` cannot be handed to Foundation's `XMLParser`, if they cannot: a processing
    /// instruction without data, or a body that is not UTF-8, unless it is UTF-16 or UTF-32 or declares an encoding the parser converts. On Linux the
    /// parser traps on a name that is not UTF-8 (`<\u{CA}\u{CA}/>`, five bytes, ended the process,
    /// and so did a declaration of an encoding it does not know); XML 1.0 (section 4.3.3) makes such a
    /// body not well-formed anyway.
    static func hazard(_ bytes: [UInt8]) -> String? {
        if let target = processingInstructionWithoutData(bytes) {
            return "the processing instruction <?\(target)?> has no data, which this server's XML parser cannot take"
        }
        // UTF-16 or UTF-32, with or without a byte-order mark: the parser converts those itself.
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) || bytes.prefix(2).contains(0) { return nil }
        if let encoding = declaredEncoding(bytes), convertedEncodings.contains(encoding.lowercased()) { return nil }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return "the body is not UTF-8 (at byte offset \(offset)) and declares no other encoding this server reads"
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

    /// The `encoding` of the XML declaration that starts `bytes`, if it has one.
    private static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        let start = Array("<?xml".utf8)
        // A declaration is `<?xml` and white space, in ASCII (`<?xml\u{D9}…` is a processing instruction).
        guard bytes.starts(with: start), bytes.count > start.count, [0x20, 0x09, 0x0D, 0x0A].contains(bytes[start.count]),
              let end = bytes.prefix(256).firstIndex(of: UInt8(ascii: ">")), bytes[..<end].allSatisfy({ $0 < 0x80 }) else { return nil }
        let declaration = String(decoding: bytes[start.count..<end], as: UTF8.self)
        guard let name = declaration.firstRange(of: "encoding") else { return nil }
        let rest = declaration[name.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote })
    }
}
