/// The section of a `BODY[…]` item (RFC 3501 §6.4.5): which part, by its part numbers, and which of
/// its texts (header, some header fields, body text, MIME header), or the part's content.
package struct IMAPSection: Hashable, Sendable {
    /// The part numbers (`[2, 1]` for `2.1`); empty for the message itself.
    package var part: [Int]
    /// The text of the part asked for; nil for its content (`BODY[2]`, `BODY[]`).
    package var text: Kind?

    /// A section.
    package init(part: [Int] = [], text: Kind? = nil) {
        self.part = part
        self.text = text
    }
}

extension IMAPSection: CustomStringConvertible {
    /// The section as the response echoes it between the brackets: `1.2.HEADER.FIELDS (FROM TO)`,
    /// field names upper-cased as Dovecot echoes them; empty for the whole message.
    package var description: String {
        var pieces = part.map(String.init)
        if let text { pieces.append(text.description) }
        return pieces.joined(separator: ".")
    }
}
