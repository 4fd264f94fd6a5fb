/// Reads an address header's raw value into ENVELOPE addresses (RFC 5322 §3.4, RFC 3501 §7.4.2) as
/// Dovecot gives them: display names and local parts as written (RFC 2047 words not decoded,
/// quotes removed), a comment as the name when there is no display name, an obsolete route
/// (`<@a,@b:x@y>`) as the source route, groups as start and end entries, and what is missing
/// written `MISSING_MAILBOX` or `MISSING_DOMAIN`. Lenient, one pass, never fatal.
enum IMAPAddressListReader {
    /// One lexical unit of an address list.
    enum Token: Equatable {
        /// An atom or dot-atom's bytes (dots and other non-special bytes included).
        case word([UInt8])
        /// A quoted string's content, escapes undone.
        case quoted([UInt8])
        /// A comment's content, without its outer parentheses.
        case comment([UInt8])
        /// One of `< > , : ; @`.
        case special(UInt8)
        /// White space between tokens.
        case space
    }

    /// The addresses of `value`, in order.
    static func addresses(_ value: [UInt8]) -> [IMAPEnvelopeAddress] {
        let tokens = tokenize(value)
        var result: [IMAPEnvelopeAddress] = []
        var entry: [Token] = []
        var inGroup = false, inAngle = false
        for token in tokens {
            switch token {
            case .special(UInt8(ascii: "<")):
                inAngle = true
                entry.append(token)
            case .special(UInt8(ascii: ">")):
                inAngle = false
                entry.append(token)
            case .special(UInt8(ascii: ",")) where !inAngle:
                finish(entry, into: &result)
                entry.removeAll()
            case .special(UInt8(ascii: ":")) where !inAngle && !inGroup:
                result.append(.groupStart(phrase(entry[...])))
                inGroup = true
                entry.removeAll()
            case .special(UInt8(ascii: ";")) where !inAngle:
                finish(entry, into: &result)
                entry.removeAll()
                if inGroup {
                    result.append(.groupEnd)
                    inGroup = false
                }
            default:
                entry.append(token)
            }
        }
        finish(entry, into: &result)
        if inGroup { result.append(.groupEnd) }
        return result
    }

    /// Adds the address of one entry (the tokens between separators), if it has any content.
    static func finish(_ entry: [Token], into result: inout [IMAPEnvelopeAddress]) {
        let comment = entry.reduce(into: [UInt8]?.none) { last, token in
            if case .comment(let content) = token, !content.isEmpty { last = content }
        }
        if let open = entry.firstIndex(of: .special(UInt8(ascii: "<"))) {
            let close = entry[open...].firstIndex(of: .special(UInt8(ascii: ">"))) ?? entry.endIndex
            var inside = entry[(open + 1)..<close].filter { $0 != .space && !isComment($0) }[...]
            var route: [UInt8]?
            if let colon = inside.lastIndex(of: .special(UInt8(ascii: ":"))) {
                route = joined(inside[..<colon])
                inside = inside[(colon + 1)...]
            }
            let name = phrase(entry[..<open])
            var address = addrSpec(inside)
            address.name = name.isEmpty ? comment : name
            address.route = route
            result.append(address)
            return
        }
        let plain = entry.filter { $0 != .space && !isComment($0) }
        guard !plain.isEmpty else { return }
        if plain.contains(.special(UInt8(ascii: "@"))) {
            var address = addrSpec(plain[...])
            address.name = comment
            result.append(address)
        } else if plain.count == 1, case .word(let word) = plain[0] {
            result.append(IMAPEnvelopeAddress(name: comment, route: nil, mailbox: word, host: IMAPEnvelopeAddress.missingDomain))
        } else {
            let name = phrase(entry[...])
            result.append(IMAPEnvelopeAddress(name: name.isEmpty ? comment : name, route: nil,
                                              mailbox: IMAPEnvelopeAddress.missingMailbox, host: IMAPEnvelopeAddress.missingDomain))
        }
    }

    /// `local@domain` from its tokens (spaces and comments removed), missing pieces named.
    static func addrSpec(_ tokens: ArraySlice<Token>) -> IMAPEnvelopeAddress {
        let at = tokens.firstIndex(of: .special(UInt8(ascii: "@")))
        let local = joined(tokens[..<(at ?? tokens.endIndex)])
        let domain = at.map { joined(tokens[($0 + 1)...]) } ?? []
        return IMAPEnvelopeAddress(name: nil, route: nil,
                                   mailbox: local.isEmpty ? IMAPEnvelopeAddress.missingMailbox : local,
                                   host: domain.isEmpty ? IMAPEnvelopeAddress.missingDomain : domain)
    }

    /// Tokens' bytes run together (a local part, a domain, a route).
    static func joined(_ tokens: ArraySlice<Token>) -> [UInt8] {
        var bytes: [UInt8] = []
        for token in tokens {
            switch token {
            case .word(let word), .quoted(let word): bytes += word
            case .special(let byte): bytes.append(byte)
            case .comment, .space: continue
            }
        }
        return bytes
    }

    /// A display name: its words and quoted strings with single spaces between, comments left out.
    static func phrase(_ tokens: ArraySlice<Token>) -> [UInt8] {
        var bytes: [UInt8] = []
        var space = false
        for token in tokens {
            switch token {
            case .space, .comment:
                space = !bytes.isEmpty
            case .word(let word), .quoted(let word):
                if space { bytes.append(0x20) }
                bytes += word
                space = false
            case .special(let byte):
                if space { bytes.append(0x20) }
                bytes.append(byte)
                space = false
            }
        }
        return bytes
    }

    /// Whether `token` is a comment.
    static func isComment(_ token: Token) -> Bool {
        if case .comment = token { return true }
        return false
    }

    /// The tokens of `value`.
    static func tokenize(_ value: [UInt8]) -> [Token] {
        var tokens: [Token] = []
        var word: [UInt8] = []
        var index = 0
        func endWord() {
            if !word.isEmpty { tokens.append(.word(word)) }
            word.removeAll()
        }
        while index < value.count {
            let byte = value[index]
            index += 1
            switch byte {
            case 0x20, 0x09, 0x0D, 0x0A:
                endWord()
                if tokens.last != .space { tokens.append(.space) }
            case UInt8(ascii: "\""):
                endWord()
                var content: [UInt8] = []
                while index < value.count, value[index] != UInt8(ascii: "\"") {
                    if value[index] == UInt8(ascii: "\\"), index + 1 < value.count { index += 1 }
                    content.append(value[index])
                    index += 1
                }
                index += 1
                tokens.append(.quoted(content))
            case UInt8(ascii: "("):
                endWord()
                var depth = 1
                var content: [UInt8] = []
                while index < value.count {
                    var next = value[index]
                    index += 1
                    if next == UInt8(ascii: "\\"), index < value.count {
                        next = value[index]
                        index += 1
                    } else if next == UInt8(ascii: "(") {
                        depth += 1
                    } else if next == UInt8(ascii: ")") {
                        depth -= 1
                        if depth == 0 { break }
                    }
                    content.append(next)
                }
                tokens.append(.comment(content))
            case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: ";"), UInt8(ascii: "@"):
                endWord()
                tokens.append(.special(byte))
            default:
                word.append(byte)
            }
        }
        endWord()
        return tokens
    }
}
