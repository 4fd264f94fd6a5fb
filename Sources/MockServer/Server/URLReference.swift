import Foundation

/// Turns what a user passes to `url(for:)` into the path, query and fragment of a URL, as a relative
/// reference to the server's base: `?` starts the query and `#` the fragment, `%XX` escapes stay as
/// they are, and every other character a part does not allow is percent-encoded (a space as `%20`,
/// `ü` as `%C3%BC`, a lone `%` as `%25`).
enum URLReference {
    /// `reference` as URL text, starting with `/`.
    static func text(_ reference: String) -> String {
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
        var text = (rest.hasPrefix("/") ? "" : "/") + encoded(rest, allowing: .urlPathAllowed)
        if let query { text += "?" + encoded(query, allowing: .urlQueryAllowed) }
        if let fragment { text += "#" + encoded(fragment, allowing: .urlFragmentAllowed) }
        return text
    }

    /// `part` with what `allowed` lacks percent-encoded, and its `%XX` escapes kept.
    private static func encoded(_ part: Substring, allowing allowed: CharacterSet) -> String {
        let bytes = Array(part.utf8)
        var result = ""
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]) {
                result += String(decoding: bytes[index...(index + 2)], as: UTF8.self)
                index += 3
                continue
            }
            if byte < 0x80, byte != UInt8(ascii: "%"), allowed.contains(Unicode.Scalar(byte)) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += String(format: "%%%02X", byte)
            }
            index += 1
        }
        return result
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }
}
