/// The argument of `MAIL FROM:` or `RCPT TO:` (RFC 5321 §4.1.2): the path's address and the ESMTP
/// parameters after it. Pure; the session judges the address and the parameters.
///
/// Read as Postfix reads it, a little more leniently than the grammar: a space after the colon is
/// allowed, an address without angle brackets is taken up to the first space, and a source route
/// (`<@relay.example:dana@example.net>`) is dropped as RFC 5321 §4.1.2 asks.
package struct SMTPPathArgument: Sendable, Equatable {
    /// Why an argument could not be read.
    package enum Failure: Error, Equatable {
        /// The keyword (`FROM:`, `TO:`) is missing or the brackets do not close: the syntax reply.
        case syntax
        /// The path's address is not an address (spaces, control characters, an empty part).
        case address
    }

    /// The address without brackets or source route; empty for the null path `<>`.
    package var address: String
    /// The ESMTP parameters in order: the keyword in capitals and the value after `=`, if any.
    package var parameters: [(keyword: String, value: String?)]

    package static func == (lhs: SMTPPathArgument, rhs: SMTPPathArgument) -> Bool {
        lhs.address == rhs.address && lhs.parameters.elementsEqual(rhs.parameters) { $0.keyword == $1.keyword && $0.value == $1.value }
    }

    /// Reads `argument`, which must begin with `keyword` (`FROM:` or `TO:`, any case).
    package init(_ argument: Substring, keyword: String) throws(Failure) {
        guard argument.count >= keyword.count, argument.prefix(keyword.count).uppercased() == keyword else { throw .syntax }
        var rest = argument.dropFirst(keyword.count).drop { $0 == " " }
        var path: Substring
        if rest.first == "<" {
            guard let close = Self.closingBracket(in: rest) else { throw .syntax }
            path = rest[rest.index(after: rest.startIndex)..<close]
            rest = rest[rest.index(after: close)...]
            if path.first == "@" {
                guard let colon = path.firstIndex(of: ":") else { throw .address }
                path = path[path.index(after: colon)...]
            }
        } else {
            let end = rest.firstIndex(of: " ") ?? rest.endIndex
            path = rest[..<end]
            rest = rest[end...]
            guard !path.isEmpty else { throw .syntax }
        }
        guard path.isEmpty || Self.isAddress(path) else { throw .address }
        address = String(path)
        parameters = rest.split(separator: " ").map { word in
            guard let equals = word.firstIndex(of: "=") else { return (word.uppercased(), nil) }
            return (word[..<equals].uppercased(), String(word[word.index(after: equals)...]))
        }
    }

    /// The `>` that closes the path opened at `text`'s start, skipping quoted strings.
    private static func closingBracket(in text: Substring) -> Substring.Index? {
        var quoted = false, escaped = false
        for index in text.indices.dropFirst() {
            let character = text[index]
            if escaped {
                escaped = false
            } else if quoted, character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if !quoted, character == ">" {
                return index
            }
        }
        return nil
    }

    /// Whether `path` is an address: no control character, no space outside a quoted local part,
    /// and when it has an `@`, something on each side of it (a bare local part such as
    /// `postmaster` is allowed).
    private static func isAddress(_ path: Substring) -> Bool {
        if path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return false }
        guard let at = path.lastIndex(of: "@") else { return path.first == "\"" || !path.contains(" ") }
        let local = path[..<at], domain = path[path.index(after: at)...]
        guard !local.isEmpty, !domain.isEmpty, !domain.contains(" ") else { return false }
        return local.first == "\"" || !local.contains(" ")
    }
}
