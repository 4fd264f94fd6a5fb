import Foundation

/// One candidate's test against a search program: the candidate, what the context says `*` and
/// `$` are, and what was read of the message so far (its bytes, its header section, whether they
/// can be searched raw), so that criteria sharing them read them once.
struct IMAPSearchEvaluation<Candidate: IMAPSearchCandidate> {
    /// The message tested.
    let candidate: Candidate
    /// What `*` and `$` stand for, and the server's time zone.
    let context: IMAPSearchContext
    /// The raw bytes, once asked.
    private var rawCache: Data?
    /// The top-level header section, once read from the raw bytes.
    private var headerCache: MIMEHeaderSection?
    /// Whether the raw bytes can be searched as they are (nil inside: they cannot), once scanned.
    private var plainCache: IMAPPlainMessage??

    /// A test of `candidate` in `context`, nothing read yet.
    init(candidate: Candidate, context: IMAPSearchContext) {
        self.candidate = candidate
        self.context = context
    }

    /// Whether the candidate satisfies `key`.
    mutating func matches(_ key: IMAPSearchKey) -> Bool {
        let flags = candidate.flags
        switch key {
        case .all: return true
        case .answered: return flags.contains(.answered)
        case .deleted: return flags.contains(.deleted)
        case .draft: return flags.contains(.draft)
        case .flagged: return flags.contains(.flagged)
        case .seen: return flags.contains(.seen)
        case .recent: return candidate.isRecent
        case .new: return candidate.isRecent && !flags.contains(.seen)
        case .old: return !candidate.isRecent
        case .unanswered: return !flags.contains(.answered)
        case .undeleted: return !flags.contains(.deleted)
        case .undraft: return !flags.contains(.draft)
        case .unflagged: return !flags.contains(.flagged)
        case .unseen: return !flags.contains(.seen)
        case .keyword(let name): return hasKeyword(name)
        case .unkeyword(let name): return !hasKeyword(name)
        case .larger(let size): return UInt64(candidate.size) > size
        case .smaller(let size): return UInt64(candidate.size) < size
        case .modSeq(let value): return candidate.modSeq >= value
        case .uid(let set):
            if set == .saved { return context.isSaved(candidate.uid) }
            return set.contains(candidate.uid, largest: context.largestUID)
        case .sequence(let set):
            if set == .saved { return context.isSaved(candidate.uid) }
            return set.contains(candidate.sequenceNumber, largest: context.messageCount)
        case .before(let day): return internalDay < day
        case .on(let day): return internalDay == day
        case .since(let day): return internalDay >= day
        case .sentBefore(let day): return sentDay < day
        case .sentOn(let day): return sentDay == day
        case .sentSince(let day): return sentDay >= day
        case .bcc(let text): return header("bcc", contains: text)
        case .cc(let text): return header("cc", contains: text)
        case .from(let text): return header("from", contains: text)
        case .to(let text): return header("to", contains: text)
        case .subject(let text): return header("subject", contains: text)
        case .header(let field, let text): return header(field, contains: text)
        case .body(let text): return content(contains: text, headers: false)
        case .text(let text): return content(contains: text, headers: true)
        case .not(let inner): return !matches(inner)
        case .or(let keys):
            // Criteria answered without the message's bytes first.
            for inner in keys where !inner.readsMessage {
                if matches(inner) { return true }
            }
            for inner in keys where inner.readsMessage {
                if matches(inner) { return true }
            }
            return false
        case .and(let keys):
            for inner in keys where !inner.readsMessage {
                if !matches(inner) { return false }
            }
            for inner in keys where inner.readsMessage {
                if !matches(inner) { return false }
            }
            return true
        }
    }

    /// Whether the keyword `name` is set, in any case; `$Forwarded` is also Maildir's `P` flag.
    private func hasKeyword(_ name: String) -> Bool {
        let lowercased = name.lowercased()
        if lowercased == "$forwarded", candidate.flags.contains(.passed) { return true }
        return candidate.keywords.contains { $0.lowercased() == lowercased }
    }

    /// INTERNALDATE's day in the server's time zone.
    private var internalDay: IMAPSearchDay {
        IMAPSearchDay(candidate.internalDate, in: context.timeZone)
    }

    /// The `Date` field's own day; a message without one, or with one that is not a date, was
    /// sent on 1-Jan-1970 (Dovecot's answer: SENTBEFORE finds it, SENTSINCE does not).
    private var sentDay: IMAPSearchDay {
        mutating get {
            headers["date"].flatMap { IMAPSearchDay(rfc5322: $0) } ?? IMAPSearchDay(daysSince1970: 0)
        }
    }

    /// The raw bytes, read from the candidate once.
    private var raw: Data {
        mutating get {
            if let rawCache { return rawCache }
            let raw = candidate.raw
            rawCache = raw
            return raw
        }
    }

    /// The message's top-level header section, read from the raw bytes (no MIME parse).
    private var headers: MIMEHeaderSection {
        mutating get {
            if let headerCache { return headerCache }
            let headers = MIMEHeaderSection(messageHeaderOf: raw)
            headerCache = headers
            return headers
        }
    }

    /// Whether a field named `name` holds `text` once decoded; with an empty `text`, whether the
    /// message has such a field (RFC 9051 §6.4.4; Dovecot: `SUBJECT ""` skips a message without one).
    private mutating func header(_ name: String, contains text: String) -> Bool {
        let values = headers.values(name)
        if text.isEmpty { return !values.isEmpty }
        guard !values.isEmpty, mayHold(text) else { return false }
        let needle = IMAPSearchNeedle(text)
        return values.contains { needle.occurs(inText: MIMEEncodedWords.decode($0)) }
    }

    /// Whether `text` is in the message's decoded text parts, or with `headers` also in the decoded
    /// header fields of any part (`TEXT`; Dovecot matches a part's own fields there, not in `BODY`).
    /// Parts that are not text (attachments, a PDF body, an encoded attached message), boundaries,
    /// preamble and epilogue are not searched, as in Dovecot.
    private mutating func content(contains text: String, headers: Bool) -> Bool {
        // An empty string is in every message (Dovecot: BODY "" finds a message with no text part).
        if text.isEmpty { return true }
        guard mayHold(text) else { return false }
        let needle = IMAPSearchNeedle(text)
        let raw = self.raw
        if needle.isASCII, let plain = plainLayout, !(headers && plain.isFolded && needle.hasWhiteSpace) {
            return raw.withUnsafeBytes { bytes in
                needle.occurs(in: headers ? bytes : UnsafeRawBufferPointer(rebasing: bytes[min(plain.bodyStart, bytes.count)...]))
            }
        }
        return Self.decodedContent(of: candidate.message, contains: needle, headers: headers)
    }

    /// Whether the message's decoded text could be as long as `text`: decoding never makes more
    /// than three bytes of UTF-8 from one raw byte (a Windows-125x `€`), so a longer needle (a
    /// hostile 64 KiB literal against a 2 KB message) is answered without preparing it.
    private mutating func mayHold(_ text: String) -> Bool {
        text.utf8.count <= 3 * raw.count
    }

    /// Whether the raw bytes need no decoding, scanned once.
    private var plainLayout: IMAPPlainMessage? {
        mutating get {
            if let plainCache { return plainCache }
            let plain = raw.withUnsafeBytes { IMAPPlainMessage.scan($0) }
            plainCache = .some(plain)
            return plain
        }
    }
}
