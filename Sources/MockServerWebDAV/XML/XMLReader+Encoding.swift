extension XMLReader {
    /// Why `bytes` cannot be handed to Foundation's `XMLParser`, if they cannot: a body read as
    /// UTF-8 (no byte-order mark, no other encoding declared) that is not UTF-8. On Linux the parser
    /// traps on a name that is not (`<\u{CA}\u{CA}/>`, five bytes, ended the process); XML 1.0
    /// (section 4.3.3) makes such a body not well-formed anyway.
    static func encodingProblem(_ bytes: [UInt8]) -> String? {
        // UTF-16 or UTF-32, with or without a byte-order mark: the parser converts those itself.
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) || bytes.prefix(2).contains(0) { return nil }
        if let encoding = declaredEncoding(bytes), !["utf-8", "utf8"].contains(encoding.lowercased()) { return nil }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return "the body is not UTF-8 (at byte offset \(offset)) and declares no other encoding"
            }
        }
    }

    /// The `encoding` of the XML declaration that starts `bytes`, if it has one.
    private static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        let start = Array("<?xml".utf8)
        guard bytes.starts(with: start), let end = bytes.prefix(256).firstIndex(of: UInt8(ascii: ">")) else { return nil }
        let declaration = String(decoding: bytes[start.count..<end], as: UTF8.self)
        guard let name = declaration.firstRange(of: "encoding") else { return nil }
        let rest = declaration[name.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote })
    }
}
