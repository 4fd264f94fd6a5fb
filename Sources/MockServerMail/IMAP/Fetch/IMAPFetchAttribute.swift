/// One data item a FETCH asks for (RFC 3501 §6.4.5, RFC 9051 §6.4.5, RFC 3516 for BINARY, RFC 7162
/// for MODSEQ), after the macros ALL, FAST and FULL are expanded.
///
/// The session answers UID, FLAGS, INTERNALDATE and MODSEQ from its own state; the others need the
/// message and are written by ``IMAPMessageContent``.
package enum IMAPFetchAttribute: Hashable, Sendable {
    /// `UID`: the message's UID.
    case uid
    /// `FLAGS`: its flags.
    case flags
    /// `INTERNALDATE`: when the store received it.
    case internalDate
    /// `RFC822.SIZE`: its size in octets.
    case rfc822Size
    /// `ENVELOPE`: its header's addresses, subject, date and IDs.
    case envelope
    /// `BODY`: the body structure without extension data.
    case body
    /// `BODYSTRUCTURE`: the body structure with extension data.
    case bodyStructure
    /// `MODSEQ`: its mod-sequence (RFC 7162).
    case modSeq
    /// `RFC822`: the whole message, as `BODY[]` (sets `\Seen`).
    case rfc822
    /// `RFC822.HEADER`: the header, as `BODY.PEEK[HEADER]`.
    case rfc822Header
    /// `RFC822.TEXT`: the body, as `BODY[TEXT]` (sets `\Seen`).
    case rfc822Text
    /// `BODY[section]<partial>`, or `BODY.PEEK[…]` with `peek`.
    case bodySection(IMAPSection, partial: IMAPPartial?, peek: Bool)
    /// `BINARY[part]<partial>` (RFC 3516): the part's content decoded from its transfer encoding;
    /// `BINARY.PEEK[…]` with `peek`.
    case binary(part: [Int], partial: IMAPPartial?, peek: Bool)
    /// `BINARY.SIZE[part]`: the size of the decoded content.
    case binarySize(part: [Int])

    /// Whether answering the item sets the message's `\Seen` flag (in a folder opened read-write):
    /// RFC822, RFC822.TEXT, and BODY[…] and BINARY[…] without PEEK.
    package var setsSeen: Bool {
        switch self {
        case .rfc822, .rfc822Text: true
        case .bodySection(_, _, let peek), .binary(_, _, let peek): !peek
        default: false
        }
    }

    /// Whether the item needs the message's bytes or summary: all but UID, FLAGS, INTERNALDATE and
    /// MODSEQ, which the session knows.
    package var needsMessage: Bool {
        switch self {
        case .uid, .flags, .internalDate, .modSeq: false
        default: true
        }
    }
}
