import Foundation

/// An RFC 5322 address list (§3.4) read into mailboxes: display names (atoms, quoted strings, RFC 2047
/// words), angle addresses (an obsolete route `@a,@b:` dropped), bare addresses, comments (skipped),
/// and groups (`name: a, b;`, their mailboxes listed in place). Lenient: what cannot be a mailbox is
/// skipped, never fatal; one pass over the text.
package enum MIMEAddressList {
    enum Token: Equatable {
        case word(String)
        case quoted(String)
        case special(Character)
        case space
    }

    /// The mailboxes of `text` (a field's unfolded value), in order.
    package static func parse(_ text: String) -> [MailMessage.Address] {
        var addresses: [MailMessage.Address] = []
        var phrase: [Token] = []
        var tokens: [Token] = []
        tokenize(text, into: &tokens)
        var position = 0
        func finishBare() {
            // What was read since the last separator is a bare address (no angle brackets).
            let address = addressText(phrase)
            if !address.isEmpty { addresses.append(MailMessage.Address(address: address)) }
            phrase.removeAll()
        }
        while position < tokens.count {
            let token = tokens[position]
            position += 1
            switch token {
            case .special(":"):
                // A group's name: dropped; its mailboxes follow.
                phrase.removeAll()
            case .special(","), .special(";"):
                finishBare()
            case .special("<"):
                var inside: [Token] = []
                while position < tokens.count, tokens[position] != .special(">") {
                    inside.append(tokens[position])
                    position += 1
                }
                position += 1
                // An obsolete route (`@a,@b:`) before the address.
                if let colon = inside.lastIndex(of: .special(":")) { inside.removeSubrange(...colon) }
                let address = addressText(inside)
                if !address.isEmpty {
                    addresses.append(MailMessage.Address(name: displayName(phrase), address: address))
                }
                phrase.removeAll()
                // Anything up to the next separator is dropped.
                while position < tokens.count, tokens[position] != .special(","), tokens[position] != .special(";") { position += 1 }
            default:
                phrase.append(token)
            }
        }
        finishBare()
        return addresses
    }

    /// The display name of a phrase: its words with single spaces between, quoted strings' content
    /// as it is, encoded words decoded.
    static func displayName(_ phrase: [Token]) -> String {
        var text = ""
        var space = false
        for token in phrase {
            switch token {
            case .space:
                space = !text.isEmpty
            case .word(let word):
                if space { text += " " }
                text += word
                space = false
            case .quoted(let content):
                if space { text += " " }
                text += content
                space = false
            case .special(let character):
                if space { text += " " }
                text.append(character)
                space = false
            }
        }
        return MIMEEncodedWords.decode(text)
    }

    /// An address from its tokens: white space dropped, a quoted local part quoted again where it
    /// needs to be.
    static func addressText(_ tokens: [Token]) -> String {
        var text = ""
        for token in tokens {
            switch token {
            case .space: continue
            case .word(let word): text += word
            case .special(let character): text.append(character)
            case .quoted(let content):
                let plain = !content.isEmpty && content.unicodeScalars.allSatisfy { scalar in
                    scalar.value > 0x20 && scalar.value != 0x7F && !"()<>[]:;@\\,\"".unicodeScalars.contains(scalar)
                }
                text += plain ? content : "\"" + content.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
            }
        }
        return text
    }

    /// The tokens of `text`: words (atoms, with dots and any other character that is not special),
    /// quoted strings (escapes undone), the specials `<>,:;@`, white space; comments dropped.
    static func tokenize(_ text: String, into tokens: inout [Token]) {
        var word = ""
        var iterator = text.makeIterator()
        func endWord() {
            if !word.isEmpty { tokens.append(.word(word)) }
            word = ""
        }
        while let character = iterator.next() {
            switch character {
            case " ", "\t", "\r", "\n":
                endWord()
                if tokens.last != .space { tokens.append(.space) }
            case "\"":
                endWord()
                var content = ""
                while let next = iterator.next(), next != "\"" {
                    if next == "\\" {
                        if let escaped = iterator.next() { content.append(escaped) }
                    } else {
                        content.append(next)
                    }
                }
                tokens.append(.quoted(content))
            case "(":
                endWord()
                var depth = 1
                while depth > 0, let next = iterator.next() {
                    if next == "\\" { _ = iterator.next() } else if next == "(" { depth += 1 } else if next == ")" { depth -= 1 }
                }
                if tokens.last != .space { tokens.append(.space) }
            case "<", ">", ",", ":", ";", "@":
                endWord()
                tokens.append(.special(character))
            default:
                word.append(character)
            }
        }
        endWord()
    }
}
