/// A header value with parameters (RFC 2045 §5.1: `Content-Type`, `Content-Disposition`): the value
/// before the first `;`, lowercased, and the parameters by lowercased name, decoded.
///
/// Values are tokens or quoted strings (backslash escapes undone); comments are skipped. RFC 2231
/// parameters are joined and decoded: continuations (`name*0=`, `name*1*=`, in number order), and
/// the charset and language of an extended value (`name*=utf-8'en'%E2%82%AC`), its percent escapes
/// read as bytes of that charset. Where a name has both forms, the extended one wins (RFC 2231 §4).
/// RFC 2047 encoded words inside plain values are decoded (as Python does, and as mailers write long
/// file names), except in `boundary`.
package struct MIMEParameterizedValue: Sendable, Equatable {
    /// The value before the parameters, lowercased and trimmed (`multipart/mixed`, `attachment`).
    package let value: String
    /// The parameters by lowercased name, decoded.
    package let parameters: [String: String]

    /// Reads `text` (a field's unfolded value).
    package init(_ text: String) {
        let pieces = Self.split(text)
        value = (pieces.first ?? "").trimmingMIMESpaces.lowercased()
        var plain: [String: String] = [:]
        // name → [(section number, text, is extended)]
        var sections: [String: [(number: Int, text: String, extended: Bool)]] = [:]
        for piece in pieces.dropFirst() {
            guard let equals = piece.firstIndex(of: "=") else { continue }
            var name = piece[..<equals].trimmingMIMESpaces.lowercased()
            let rawValue = piece[piece.index(after: equals)...].trimmingMIMESpaces
            let value = Self.unquote(rawValue)
            guard !name.isEmpty else { continue }
            if let star = name.firstIndex(of: "*") {
                // name*, name*N, name*N*
                var rest = name[name.index(after: star)...]
                let base = String(name[..<star])
                var extended = false
                if rest.hasSuffix("*") { extended = true; rest = rest.dropLast() }
                let number: Int
                if rest.isEmpty {
                    number = 0
                    extended = true
                } else if let parsed = Int(rest), parsed >= 0, parsed < 10_000 {
                    number = parsed
                } else {
                    continue
                }
                name = base
                sections[name, default: []].append((number, value, extended))
            } else if plain[name] == nil {
                plain[name] = value
            }
        }
        var parameters: [String: String] = [:]
        for (name, value) in plain {
            parameters[name] = name == "boundary" ? value : MIMEEncodedWords.decode(value)
        }
        for (name, list) in sections {
            parameters[name] = Self.join(list.sorted { $0.number < $1.number })
        }
        self.parameters = parameters
    }

    /// An RFC 2231 value from its sections in order: the first extended section's charset, the
    /// percent escapes of extended sections as bytes, the plain sections as written.
    static func join(_ sections: [(number: Int, text: String, extended: Bool)]) -> String {
        var bytes: [UInt8] = []
        var charset: String?
        for (index, section) in sections.enumerated() {
            var text = Substring(section.text)
            if index == 0, section.extended {
                // charset'language'value
                let parts = text.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
                if parts.count == 3 {
                    charset = parts[0].isEmpty ? nil : String(parts[0])
                    text = parts[2]
                }
            }
            if section.extended {
                bytes += percentDecoded(text)
            } else {
                bytes += Array(text.utf8)
            }
        }
        return MIMECharset.decode(bytes, charset: charset ?? "us-ascii")
    }

    /// The bytes of `text` with its `%XX` escapes undone (a bad one left as written).
    static func percentDecoded(_ text: Substring) -> [UInt8] {
        let utf8 = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "%"), index + 2 < utf8.count,
               let high = MIMEQuotedPrintable.hexValue(utf8[index + 1]), let low = MIMEQuotedPrintable.hexValue(utf8[index + 2]) {
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(utf8[index])
                index += 1
            }
        }
        return output
    }

    /// A quoted string's content (escapes undone), or `text` as it is.
    static func unquote(_ text: String) -> String {
        guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { return text }
        var output = ""
        var escaped = false
        for character in text.dropFirst().dropLast() {
            if escaped {
                output.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                output.append(character)
            }
        }
        return output
    }

    /// Where the splitter is in a value's text.
    enum Place {
        case plain
        case quoted
        /// After a backslash in a quoted string.
        case quotedEscape
        /// In a comment, `depth` parentheses deep.
        case comment(depth: Int)
        /// After a backslash in a comment.
        case commentEscape(depth: Int)
    }

    /// `text` split at the semicolons outside quoted strings and comments, comments removed (one
    /// pass over its UTF-8 bytes).
    static func split(_ text: String) -> [String] {
        var pieces: [String] = []
        var current: [UInt8] = []
        var place = Place.plain
        for byte in text.utf8 {
            switch place {
            case .plain:
                switch byte {
                case UInt8(ascii: "\""): place = .quoted; current.append(byte)
                case UInt8(ascii: "("): place = .comment(depth: 1)
                case UInt8(ascii: ";"): pieces.append(String(decoding: current, as: UTF8.self)); current.removeAll(keepingCapacity: true)
                default: current.append(byte)
                }
            case .quoted:
                if byte == UInt8(ascii: "\\") { place = .quotedEscape } else if byte == UInt8(ascii: "\"") { place = .plain }
                current.append(byte)
            case .quotedEscape:
                place = .quoted
                current.append(byte)
            case .comment(let depth):
                switch byte {
                case UInt8(ascii: "("): place = .comment(depth: depth + 1)
                case UInt8(ascii: ")"): place = depth == 1 ? .plain : .comment(depth: depth - 1)
                case UInt8(ascii: "\\"): place = .commentEscape(depth: depth)
                default: break
                }
            case .commentEscape(let depth):
                place = .comment(depth: depth)
            }
        }
        pieces.append(String(decoding: current, as: UTF8.self))
        return pieces
    }
}

extension MIMEParameterizedValue {
    /// A value with parameters already read.
    package init(_ value: String, parameters: [String: String]) {
        self.value = value
        self.parameters = parameters
    }
}
