import Foundation
import MockServerMail

/// The plain text Mailpit derives from a message: an HTML body's text, the snippet its list shows,
/// and the text its plain-word search looks in.
enum MailpitText {
    /// How many bytes of UTF-8 a snippet keeps before its `...` (Mailpit's 200).
    static let snippetLimit = 200

    /// The text an HTML body shows: tags dropped (with what `script`, `style` and `head` hold),
    /// the common entities and numeric references decoded, runs of white space made one space.
    static func text(ofHTML html: String) -> String {
        var output = "", index = html.startIndex
        while index < html.endIndex {
            let character = html[index]
            if character == "<" {
                let close = html[index...].firstIndex(of: ">") ?? html.endIndex
                let tag = html[html.index(after: index)..<close].lowercased()
                index = close < html.endIndex ? html.index(after: close) : close
                let name = tag.prefix { $0.isLetter || $0.isNumber }
                if ["script", "style", "head", "title"].contains(name) {
                    // What they hold is not shown; unclosed, they hold the rest (one scan, not one per tag).
                    let end = html.range(of: "</\(name)", options: .caseInsensitive, range: index..<html.endIndex)
                    index = end.flatMap { html[$0.upperBound...].firstIndex(of: ">") }.map { html.index(after: $0) } ?? html.endIndex
                }
                output.append(" ")
            } else if character == "&", let semicolon = html[index...].prefix(10).firstIndex(of: ";"),
                      let decoded = entity(html[html.index(after: index)..<semicolon]) {
                output.append(decoded)
                index = html.index(after: semicolon)
            } else {
                output.append(character)
                index = html.index(after: index)
            }
        }
        return collapsed(output)
    }

    /// The character an entity's name (`amp`, `#39`, `#x2014`) stands for; nil for one it does not know.
    static func entity(_ name: Substring) -> Character? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        case "nbsp": return " "
        default:
            guard name.first == "#" else { return nil }
            let digits = name.dropFirst()
            let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            return value.flatMap(Unicode.Scalar.init).map(Character.init)
        }
    }

    /// `text` with each run of white space (a byte-order mark included) made one space, trimmed.
    static func collapsed(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace || $0 == "\u{FEFF}" }).joined(separator: " ")
    }

    /// Mailpit's `Snippet`: the HTML's text, or else the text, in at most ``snippetLimit`` bytes
    /// (cut between characters) followed by `...` when it was longer.
    static func snippet(text: String?, html: String?) -> String {
        var snippet = html.map(text(ofHTML:)) ?? ""
        if snippet.isEmpty { snippet = collapsed(text ?? "") }
        guard snippet.utf8.count > snippetLimit else { return snippet }
        var kept = "", bytes = 0
        for character in snippet {
            bytes += character.utf8.count
            if bytes > snippetLimit { break }
            kept.append(character)
        }
        return kept + "..."
    }

    /// A word or text as Mailpit's search compares it: lowercased, `<`, `>`, quotes, commas,
    /// semicolons, parentheses and line breaks made spaces, runs of space made one.
    static func cleaned(_ text: String) -> String {
        let separators: Set<Character> = ["<", ">", "\"", ",", ";", "(", ")", "\r", "\n", "\r\n", "\t"]
        return collapsed(String(text.lowercased().map { separators.contains($0) ? " " : $0 }))
    }

    /// What a plain word of a search looks in: the address fields, the subject, the HTML's text
    /// (or the text) and the attachments' file names, cleaned.
    static func searchText(of transaction: MailTransaction) -> String {
        let message = transaction.message
        var pieces = ["from", "subject", "to", "cc", "bcc", "reply-to", "return-path"].compactMap(message.header)
        pieces.append(contentsOf: transaction.blindCopies)
        let html = message.html.map(text(ofHTML:)) ?? ""
        pieces.append(html.isEmpty ? message.text ?? "" : html)
        pieces.append(contentsOf: message.attachments.compactMap(\.fileName))
        return cleaned(pieces.joined(separator: " "))
    }
}
