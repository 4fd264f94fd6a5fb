/// One argument of an IMAP command as the reader framed it (RFC 9051 §4, §9), before any
/// command gives it a meaning.
///
/// Sequence sets (`1:*,5`), flags (`\Seen`), LIST patterns (`%`, `*`) and unquoted mailbox names
/// (`[Gmail]/Sent`) are kept as ``atom(_:)`` text; the session parses them where it expects them.
/// An atom of digits alone is a ``number(_:)`` when it fits 64 bits (a MODSEQ needs 63), and an
/// atom otherwise, so a session can answer an over-32-bit sequence number `BAD` itself.
package indirect enum IMAPValue: Sendable, Hashable {
    /// An atom, as sent (its case kept).
    case atom(String)
    /// An atom of decimal digits that fits 64 bits.
    case number(UInt64)
    /// A quoted string's bytes, its escapes removed (8-bit bytes kept: UTF8=ACCEPT).
    case quoted([UInt8])
    /// A literal's bytes (`{n}`, `{n+}`), or with `binary` a literal8's (`~{n}`, RFC 3516); they
    /// may hold CR, LF and NUL.
    case literal([UInt8], binary: Bool)
    /// The atom `NIL`, in any case. Where an astring is expected it is the mailbox or string `NIL`.
    case `nil`
    /// A parenthesized list.
    case list([IMAPValue])
    /// A FETCH item with a section, `BODY[HEADER.FIELDS (A B)]<0.10>`: the name before `[`
    /// (`BODY`, `BODY.PEEK`, `BINARY`, `BINARY.PEEK`, `BINARY.SIZE`, as sent), the section's
    /// contents as values (`HEADER.FIELDS` and the list), and the `<offset.count>` if any.
    case section(name: String, section: [IMAPValue], partial: IMAPPartial?)

    /// The bytes of an astring or string argument (atom, number, quoted string, literal or NIL
    /// taken as the text `NIL`), or nil for a list or section.
    package var stringBytes: [UInt8]? {
        switch self {
        case .atom(let text): return Array(text.utf8)
        case .number(let value): return Array(String(value).utf8)
        case .quoted(let bytes), .literal(let bytes, _): return bytes
        case .nil: return Array("NIL".utf8)
        case .list, .section: return nil
        }
    }
}
