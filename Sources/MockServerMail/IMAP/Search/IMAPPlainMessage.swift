/// What one pass over a message's header section tells about whether its raw bytes can be
/// searched as they are: a message that is one text part (or has no Content-Type), in no
/// transfer encoding that needs decoding, with no RFC 2047 word in its header, reads the same
/// raw as decoded for an ASCII needle. Searching it then makes no String and parses no MIME.
///
/// A multipart is never plain: its boundaries, preamble and non-text parts are not searched text
/// (Dovecot matches neither `preamble` nor an octet-stream part's words).
struct IMAPPlainMessage {
    /// Where the body starts (after the empty line ending the header section).
    let bodyStart: Int
    /// Whether a header field is folded: a needle with white space may then match the unfolded
    /// field and not the raw bytes, so such a needle takes the decoding path.
    let isFolded: Bool

    /// The layout of `raw` when it is plain, nil when it needs decoding.
    static func scan(_ raw: UnsafeRawBufferPointer) -> IMAPPlainMessage? {
        var isFolded = false
        var lineStart = 0
        let end = raw.count
        var previous: UInt8 = 0
        while lineStart < end {
            var cursor = lineStart
            while cursor < end, raw[cursor] != UInt8(ascii: "\n") {
                let byte = raw[cursor]
                if previous == UInt8(ascii: "="), byte == UInt8(ascii: "?") { return nil }
                previous = byte
                cursor += 1
            }
            let next = cursor < end ? cursor + 1 : cursor
            let contentEnd = cursor > lineStart && raw[cursor - 1] == UInt8(ascii: "\r") ? cursor - 1 : cursor
            if contentEnd == lineStart { return IMAPPlainMessage(bodyStart: next, isFolded: isFolded) }
            let lead = raw[lineStart]
            if lead == UInt8(ascii: " ") || lead == UInt8(ascii: "\t") {
                isFolded = true
            } else if startsField("content-type:", raw, at: lineStart, before: contentEnd) {
                let value = valueStart(raw, after: lineStart + 13)
                if value == end || startsField("text/", raw, at: value, before: end) == false { return nil }
            } else if startsField("content-transfer-encoding:", raw, at: lineStart, before: contentEnd) {
                let value = valueStart(raw, after: lineStart + 26)
                if startsField("base64", raw, at: value, before: end) || startsField("quoted-printable", raw, at: value, before: end) {
                    return nil
                }
            } else if lineStart == 0, startsField("from ", raw, at: 0, before: contentEnd) {
                // A leading mbox `From ` line, which MIMEHeaderSection skips.
            } else if !isField(raw, from: lineStart, to: contentEnd) {
                // Neither a field nor a continuation: the body starts at this line, as MIMEHeaderSection reads it.
                return IMAPPlainMessage(bodyStart: lineStart, isFolded: isFolded)
            }
            previous = 0
            lineStart = next
        }
        return IMAPPlainMessage(bodyStart: end, isFolded: isFolded)
    }

    /// Whether `raw[start...]` begins with `prefix` (lowercase ASCII), in any case, before `limit`.
    private static func startsField(_ prefix: StaticString, _ raw: UnsafeRawBufferPointer, at start: Int, before limit: Int) -> Bool {
        let length = prefix.utf8CodeUnitCount
        guard start + length <= limit else { return false }
        return prefix.withUTF8Buffer { expected in
            for offset in 0..<length where IMAPSearchNeedle.folded(raw[start + offset]) != expected[offset] { return false }
            return true
        }
    }

    /// The first offset after `start` that is not white space or a line break (a value may start
    /// on a continuation line).
    private static func valueStart(_ raw: UnsafeRawBufferPointer, after start: Int) -> Int {
        var index = start
        while index < raw.count, raw[index] == 0x20 || raw[index] == 0x09 || raw[index] == 0x0D || raw[index] == 0x0A { index += 1 }
        return index
    }

    /// Whether the line is a header field: printable ASCII up to a colon.
    private static func isField(_ raw: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Bool {
        var index = start
        while index < end, raw[index] > 0x20, raw[index] < 0x7F, raw[index] != UInt8(ascii: ":") { index += 1 }
        return index < end && index > start && raw[index] == UInt8(ascii: ":")
    }
}
