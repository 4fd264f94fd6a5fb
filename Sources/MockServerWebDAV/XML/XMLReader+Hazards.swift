import MockServerHTTP

extension XMLReader {
    /// Why `bytes` cannot be handed to Foundation's `XMLParser`, if they cannot: a processing
    /// instruction without data, or a body that is neither UTF-8 nor UTF-16 (or UTF-32), whatever
    /// encoding it declares (RFC 4918 asks for UTF-8 and UTF-16 only). On Linux the parser traps on a
    /// name that is not UTF-8: `<\u{CA}\u{CA}/>`, five bytes, ended the process, and so did such a
    /// name after a declaration of ISO-8859-1 the parser did not take (`version="1.0$"`).
    ///
    /// A document type declaration is refused too: a WebDAV body has none (RFC 4918 §17 and §20.6),
    /// and through one the parser would expand entities and meet declarations whose missing parts
    /// it hands to Foundation as null pointers.
    static func hazard(_ bytes: [UInt8]) -> String? {
        if let target = processingInstructionWithoutData(bytes) {
            return "the processing instruction <?\(target)?> has no data, which this server's XML parser cannot take"
        }
        // UTF-16 with its byte-order mark: the parser converts it itself, once it is known to be UTF-16.
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            guard bytes.count % 2 == 0, let text = utf16Text(bytes.dropFirst(2), bigEndian: bytes[0] == 0xFE) else {
                return "the XML body is not UTF-16 although it begins with a UTF-16 byte-order mark"
            }
            return text.contains("<!DOCTYPE") ? doctypeRefusal : nil
        }
        if bytes.contains(0) { return "the XML body holds a NUL byte at offset \(bytes.firstIndex(of: 0) ?? 0) (this server reads UTF-8, and UTF-16 with its byte-order mark)" }
        if containsDoctype(bytes) { return doctypeRefusal }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return "the XML body is not UTF-8: byte \(HTTPSyntax.hex(bytes[offset])) at offset \(offset) (this server reads UTF-8 and UTF-16)"
            }
        }
    }

    /// The text of UTF-16 `bytes` in either byte order, or `nil` when they are not UTF-16.
    private static func utf16Text(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> String? {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            let (first, second) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
            units.append(bigEndian ? first << 8 | second : second << 8 | first)
            index += 2
        }
        var text = ""
        var iterator = units.makeIterator()
        var decoder = UTF16()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): text.unicodeScalars.append(scalar)
            case .emptyInput: return text
            case .error: return nil
            }
        }
    }

    /// The refusal of a body with a document type declaration.
    private static let doctypeRefusal = "the XML body has a document type declaration (<!DOCTYPE): a WebDAV body has none, and this server reads none"

    /// Whether `bytes` hold `<!DOCTYPE`.
    private static func containsDoctype(_ bytes: [UInt8]) -> Bool {
        let marker = Array("<!DOCTYPE".utf8)
        guard bytes.count >= marker.count else { return false }
        return (0...(bytes.count - marker.count)).contains { start in bytes[start] == 0x3C && bytes[start..<start + marker.count].elementsEqual(marker) }
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
