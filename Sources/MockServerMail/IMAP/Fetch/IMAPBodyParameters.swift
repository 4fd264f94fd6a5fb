/// A `Content-Type` or `Content-Disposition` value read for BODYSTRUCTURE (RFC 2045 §5.1, RFC 2183):
/// the value before the first `;` and the parameters, names and values as written (quotes and
/// escapes removed, case kept), with RFC 2231 continuations joined as Dovecot joins them.
///
/// Dovecot leaves RFC 2231 values encoded: `name*=utf-8''%C3%96` stays `"name*" "utf-8''%C3%96"`,
/// and the sections of a continued parameter (`name*0*=…; name*1*=…; name*2="…"`) become one
/// parameter, `name*` when its first section is extended and `name` otherwise, their values run
/// together as written; continued parameters come after the others, by name. A client decodes them
/// as it decodes a header's (IMAPClient and Thunderbird do).
struct IMAPBodyParameters {
    /// The value before the parameters, trimmed, as written (`Multipart/Mixed`, `attachment`).
    var value: [UInt8]
    /// The parameters in the order Dovecot gives them.
    var parameters: [(name: [UInt8], value: [UInt8])]

    /// Reads `text` (a field's unfolded raw value).
    init(_ text: [UInt8]) {
        let pieces = Self.split(text)
        value = Self.trimmed(pieces.first ?? [])
        parameters = []
        // Continuation sections: base name → (number, extended, value).
        var sections: [(base: [UInt8], number: Int, extended: Bool, value: [UInt8])] = []
        for piece in pieces.dropFirst() {
            guard let equals = piece.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let name = Self.trimmed(piece[..<equals])
            guard !name.isEmpty else { continue }
            let value = Self.unquoted(Self.trimmed(piece[(equals + 1)...]))
            if let star = name.firstIndex(of: UInt8(ascii: "*")), star + 1 < name.count {
                var rest = name[(star + 1)...]
                var extended = false
                if rest.last == UInt8(ascii: "*") {
                    extended = true
                    rest = rest.dropLast()
                }
                if !rest.isEmpty, rest.count <= 4, rest.allSatisfy({ (0x30...0x39).contains($0) }),
                   let number = Int(String(decoding: rest, as: UTF8.self)) {
                    sections.append((Array(name[..<star]), number, extended, value))
                    continue
                }
            }
            parameters.append((name, value))
        }
        guard !sections.isEmpty else { return }
        sections.sort { lhs, rhs in
            let left = lhs.base.map(Self.lowercased), right = rhs.base.map(Self.lowercased)
            return left == right ? lhs.number < rhs.number : left.lexicographicallyPrecedes(right)
        }
        var start = 0
        while start < sections.count {
            let base = sections[start].base.map(Self.lowercased)
            var end = start
            var joined: [UInt8] = []
            while end < sections.count, sections[end].base.map(Self.lowercased) == base {
                joined += sections[end].value
                end += 1
            }
            parameters.append((sections[start].base + (sections[start].extended ? [UInt8(ascii: "*")] : []), joined))
            start = end
        }
    }

    /// Whether a parameter is named `name` (ASCII, lowercased), in any case.
    func has(_ name: String) -> Bool {
        parameters.contains { $0.name.map(Self.lowercased).elementsEqual(name.utf8) }
    }

    /// Writes `("name" "value" …)`, or `NIL` for no parameters.
    static func write(_ parameters: [(name: [UInt8], value: [UInt8])], to output: inout IMAPOutput) {
        guard !parameters.isEmpty else {
            output.text("NIL")
            return
        }
        output.byte(0x28)
        for (index, parameter) in parameters.enumerated() {
            if index > 0 { output.byte(0x20) }
            output.string(parameter.name)
            output.byte(0x20)
            output.string(parameter.value)
        }
        output.byte(0x29)
    }

    /// `byte` lowercased, if an ASCII capital.
    static func lowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
    }

    /// `bytes` without the spaces, tabs, CRs and LFs at their ends.
    static func trimmed(_ bytes: some Collection<UInt8>) -> [UInt8] {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }) else { return [] }
        let array = Array(bytes[first...])
        let last = array.lastIndex { !isSpace($0) }!
        return Array(array[...last])
    }

    /// A quoted string's content (escapes undone), or the bytes as they are.
    static func unquoted(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "\""), bytes.last == UInt8(ascii: "\"") else { return bytes }
        var output: [UInt8] = []
        var escaped = false
        for byte in bytes.dropFirst().dropLast() {
            if !escaped, byte == UInt8(ascii: "\\") {
                escaped = true
                continue
            }
            output.append(byte)
            escaped = false
        }
        return output
    }

    /// `text` split at the semicolons outside quoted strings, comments removed.
    static func split(_ text: [UInt8]) -> [[UInt8]] {
        var pieces: [[UInt8]] = []
        var current: [UInt8] = []
        var quoted = false, escaped = false, commentDepth = 0
        for byte in text {
            if escaped {
                if commentDepth == 0 { current.append(byte) }
                escaped = false
                continue
            }
            if byte == UInt8(ascii: "\\"), quoted || commentDepth > 0 {
                escaped = true
                if commentDepth == 0 { current.append(byte) }
                continue
            }
            if commentDepth > 0 {
                if byte == UInt8(ascii: "(") { commentDepth += 1 } else if byte == UInt8(ascii: ")") { commentDepth -= 1 }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                quoted.toggle()
                current.append(byte)
            case UInt8(ascii: "(") where !quoted:
                commentDepth = 1
            case UInt8(ascii: ";") where !quoted:
                pieces.append(current)
                current.removeAll()
            default:
                current.append(byte)
            }
        }
        pieces.append(current)
        return pieces
    }
}
