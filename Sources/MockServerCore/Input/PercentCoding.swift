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

    /// `text` decoded as ``decode(_:plusAsSpace:strictness:)`` does, leniently, as text: a path
    /// segment (`+` stays a `+`), or with `plusAsSpace` a query's or a form's field.
    package static func decodedText(_ text: Substring, plusAsSpace: Bool = false) -> String {
        String(decoding: decode(text.utf8, plusAsSpace: plusAsSpace) ?? Array(text.utf8), as: UTF8.self)
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

    /// A reference to a server's root as URL text starting with `/`, as `url(for:)` takes it: `?`
    /// starts the query and `#` the fragment, `%XX` escapes stay as written, and every other byte a
    /// part does not allow (RFC 3986: a path's `pchar` and `/`; a query's and a fragment's, `?` too)
    /// is escaped: a space as `%20`, `ü` as `%C3%BC`, a lone `%` as `%25`, a second `#` as `%23`.
    package static func urlReference(_ reference: String) -> String {
        var rest = Substring(reference)
        var fragment: Substring?
        if let hash = rest.firstIndex(of: "#") {
            fragment = rest[rest.index(after: hash)...]
            rest = rest[..<hash]
        }
        var query: Substring?
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        var text = (rest.hasPrefix("/") ? "" : "/") + encode(keepingEscapesIn: rest.utf8, keeping: isPathByte)
        if let query { text += "?" + encode(keepingEscapesIn: query.utf8) { isPathByte($0) || $0 == UInt8(ascii: "?") } }
        if let fragment { text += "#" + encode(keepingEscapesIn: fragment.utf8) { isPathByte($0) || $0 == UInt8(ascii: "?") } }
        return text
    }

    /// `text` with its well-formed `%XX` escapes kept as written and every other byte that
    /// `allowed` rejects (a lone `%` always) escaped.
    package static func encode(keepingEscapesIn text: some Collection<UInt8>, keeping allowed: (UInt8) -> Bool) -> String {
        let bytes = Array(text)
        var output = ""
        var start = 0
        var index = 0
        // Runs between well-formed escapes are encoded; each escape is copied as written.
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count, hexValue(bytes[index + 1]) != nil, hexValue(bytes[index + 2]) != nil else {
                index += 1
                continue
            }
            output += encode(bytes[start..<index]) { $0 != UInt8(ascii: "%") && allowed($0) }
            output += String(decoding: bytes[index..<(index + 3)], as: UTF8.self)
            index += 3
            start = index
        }
        return output + encode(bytes[start...]) { $0 != UInt8(ascii: "%") && allowed($0) }
    }

    /// Whether `byte` may stand as itself in a URL's path: RFC 3986's unreserved characters,
    /// sub-delimiters, `:`, `@` and `/`.
    private static func isPathByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "-._~!$&'()*+,;=:@/".utf8.contains(byte)
        }
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
