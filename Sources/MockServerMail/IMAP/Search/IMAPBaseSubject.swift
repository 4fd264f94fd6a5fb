/// The base subject of RFC 5256 §2.1, which SORT (SUBJECT) compares and threading groups by:
/// the decoded subject without its `Re:`, `Fw:`, `Fwd:` leaders, `[blob]` prefixes and `(fwd)`
/// trailers, white space collapsed.
///
/// `Re: [list] Fwd: Hello (fwd)` and `[fwd: Hello]` both have the base subject `Hello`; a subject
/// that is only blobs keeps its last one (`[a] [b]` → `[b]`), since removing it would leave
/// nothing (step 4). Dovecot sorts these as this does.
enum IMAPBaseSubject {
    /// The base subject of a subject already decoded from its RFC 2047 words.
    static func of(_ subject: String) -> String {
        // (1) Tabs and line breaks are spaces, runs of spaces one space.
        var text: [UInt8] = []
        text.reserveCapacity(subject.utf8.count)
        for byte in subject.utf8 {
            let byte = byte == 0x09 || byte == 0x0D || byte == 0x0A ? 0x20 : byte
            if byte == 0x20, text.last == 0x20 { continue }
            text.append(byte)
        }
        var slice = text[...]
        while true {
            // (2) Trailers: white space and `(fwd)`.
            while true {
                while slice.last == 0x20 { slice.removeLast() }
                guard hasSuffix(slice, "(fwd)") else { break }
                slice.removeLast(5)
            }
            // (3)–(5) Leaders and blobs, until neither is left.
            var changed = true
            while changed {
                changed = false
                if let rest = afterLeader(slice) {
                    slice = rest
                    changed = true
                }
                if let rest = afterBlob(slice), rest.contains(where: { $0 != 0x20 }) {
                    slice = rest
                    changed = true
                }
            }
            // (6) `[fwd: …]` wrapping the whole: unwrap and go again.
            guard hasPrefix(slice, "[fwd:"), slice.last == UInt8(ascii: "]") else { break }
            slice = slice.dropFirst(5).dropLast()
        }
        return String(decoding: slice, as: UTF8.self)
    }

    /// What follows a `subj-leader` at the start: one space, or blobs then `re`, `fw` or `fwd`,
    /// spaces, an optional blob and a colon. Nil when none is there.
    private static func afterLeader(_ text: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        if text.first == 0x20 { return text.dropFirst() }
        var rest = text
        while let next = afterBlob(rest) { rest = next }
        if hasPrefix(rest, "fwd") {
            rest = rest.dropFirst(3)
        } else if hasPrefix(rest, "fw") || hasPrefix(rest, "re") {
            rest = rest.dropFirst(2)
        } else {
            return nil
        }
        while rest.first == 0x20 { rest.removeFirst() }
        if let next = afterBlob(rest) { rest = next }
        guard rest.first == UInt8(ascii: ":") else { return nil }
        return rest.dropFirst()
    }

    /// What follows a `subj-blob` at the start (`[` anything but brackets `]`, then spaces), or nil.
    private static func afterBlob(_ text: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard text.first == UInt8(ascii: "[") else { return nil }
        var rest = text.dropFirst()
        while let byte = rest.first, byte != UInt8(ascii: "]") {
            if byte == UInt8(ascii: "[") { return nil }
            rest.removeFirst()
        }
        guard !rest.isEmpty else { return nil }
        rest.removeFirst()
        while rest.first == 0x20 { rest.removeFirst() }
        return rest
    }

    /// Whether `text` starts with `prefix` (lowercase ASCII), in any case.
    private static func hasPrefix(_ text: ArraySlice<UInt8>, _ prefix: String) -> Bool {
        text.count >= prefix.utf8.count && zip(text, prefix.utf8).allSatisfy { IMAPSearchNeedle.folded($0) == $1 }
    }

    /// Whether `text` ends with `suffix` (lowercase ASCII), in any case.
    private static func hasSuffix(_ text: ArraySlice<UInt8>, _ suffix: String) -> Bool {
        text.count >= suffix.utf8.count && zip(text.suffix(suffix.utf8.count), suffix.utf8).allSatisfy { IMAPSearchNeedle.folded($0) == $1 }
    }
}
