/// One SEARCH criterion (RFC 9051 §6.4.4, RFC 3501 §6.4.4), parsed: what a message must be for
/// the session to answer its number.
///
/// Text criteria hold the client's text (UTF-8); they match case-insensitively on the decoded
/// message, as Dovecot does (``IMAPSearchContext/matches(_:_:)``). `OR` chains are flattened into
/// one ``or(_:)`` and `NOT NOT` cancels out, so a long chain a client writes costs no nesting.
package indirect enum IMAPSearchKey: Hashable, Sendable {
    /// `ALL`: every message.
    case all
    /// `ANSWERED`: `\Answered` set.
    case answered
    /// `DELETED`: `\Deleted` set.
    case deleted
    /// `DRAFT`: `\Draft` set.
    case draft
    /// `FLAGGED`: `\Flagged` set.
    case flagged
    /// `SEEN`: `\Seen` set.
    case seen
    /// `RECENT` (RFC 3501 only): `\Recent` set.
    case recent
    /// `NEW` (RFC 3501 only): `\Recent` set and `\Seen` not.
    case new
    /// `OLD` (RFC 3501 only): `\Recent` not set.
    case old
    /// `UNANSWERED`: `\Answered` not set.
    case unanswered
    /// `UNDELETED`: `\Deleted` not set.
    case undeleted
    /// `UNDRAFT`: `\Draft` not set.
    case undraft
    /// `UNFLAGGED`: `\Flagged` not set.
    case unflagged
    /// `UNSEEN`: `\Seen` not set.
    case unseen
    /// `KEYWORD flag`: the keyword set (any case; `$Forwarded` is Maildir's `P` too).
    case keyword(String)
    /// `UNKEYWORD flag`: the keyword not set.
    case unkeyword(String)
    /// `BCC string`: in the decoded `Bcc` field.
    case bcc(String)
    /// `CC string`: in the decoded `Cc` field.
    case cc(String)
    /// `FROM string`: in the decoded `From` field.
    case from(String)
    /// `TO string`: in the decoded `To` field.
    case to(String)
    /// `SUBJECT string`: in the decoded `Subject` field.
    case subject(String)
    /// `HEADER field-name string`: in a field of that name; an empty string matches any message
    /// that has the field.
    case header(field: String, value: String)
    /// `BODY string`: in the decoded text of the message's text parts.
    case body(String)
    /// `TEXT string`: in the decoded header fields (every part's) or the text parts.
    case text(String)
    /// `BEFORE date`: INTERNALDATE's day, in the server's time zone, before the date.
    case before(IMAPSearchDay)
    /// `ON date`: INTERNALDATE's day is the date.
    case on(IMAPSearchDay)
    /// `SINCE date`: INTERNALDATE's day is the date or later.
    case since(IMAPSearchDay)
    /// `SENTBEFORE date`: the `Date` field's own day (its time and zone disregarded) before the date.
    case sentBefore(IMAPSearchDay)
    /// `SENTON date`: the `Date` field's own day is the date.
    case sentOn(IMAPSearchDay)
    /// `SENTSINCE date`: the `Date` field's own day is the date or later.
    case sentSince(IMAPSearchDay)
    /// `LARGER n`: RFC822.SIZE above n (RFC 9051: a 63-bit number).
    case larger(UInt64)
    /// `SMALLER n`: RFC822.SIZE below n.
    case smaller(UInt64)
    /// `UID set`: the message's UID in the set (`*` is the largest UID; `$` the saved result).
    case uid(IMAPSequenceSet)
    /// A sequence set: the message's sequence number in it (`*` is the message count; `$` the
    /// saved result, RFC 5182).
    case sequence(IMAPSequenceSet)
    /// `MODSEQ [entry-name entry-type] n` (RFC 7162 §3.1.5): the message's mod-sequence is n or
    /// more; the entry name and type are accepted and ignored, as the flag they name is.
    case modSeq(UInt64)
    /// `NOT key`.
    case not(IMAPSearchKey)
    /// `OR key key`, a chain of them flattened: any of the keys (two or more).
    case or([IMAPSearchKey])
    /// `(key key …)`, and the keys of the command itself: all of them.
    case and([IMAPSearchKey])

    /// Whether the key or one inside it is `MODSEQ`: the SEARCH or SORT response then carries
    /// ` (MODSEQ n)` (RFC 7162 §3.1.5).
    package var usesModSeq: Bool {
        switch self {
        case .modSeq: true
        case .not(let key): key.usesModSeq
        case .or(let keys), .and(let keys): keys.contains { $0.usesModSeq }
        default: false
        }
    }

    /// Whether the key or one inside it is `$`, the saved result (RFC 5182 §2.1: a SEARCH that
    /// uses it with SAVE replaces it only after it is read).
    package var usesSavedResult: Bool {
        switch self {
        case .uid(.saved), .sequence(.saved): true
        case .not(let key): key.usesSavedResult
        case .or(let keys), .and(let keys): keys.contains { $0.usesSavedResult }
        default: false
        }
    }

    /// Whether testing the key reads the message's bytes (the matcher tests such keys after the
    /// others of a list or an `OR`).
    var readsMessage: Bool {
        switch self {
        case .bcc, .cc, .from, .to, .subject, .header, .body, .text, .sentBefore, .sentOn, .sentSince: true
        case .not(let inner): inner.readsMessage
        case .or(let keys), .and(let keys): keys.contains { $0.readsMessage }
        default: false
        }
    }
}
