/// The text a SEARCH criterion looks for, prepared once: lowercased, and with the failure table
/// of Knuth–Morris–Pratt, so that finding it is linear in the text searched whatever the needle
/// (a hostile `aaaa…ab` costs no more than `hello`).
///
/// An ASCII needle is found in bytes with ASCII letters folded, so decoded text in any
/// ASCII-compatible charset (every one MIMECharset reads) is searched without making a String.
/// A needle with other characters is found in text lowercased the same way (Unicode lowercase
/// mapping: `RÉSUMÉ` finds `Résumé`, `STRAßE` finds `straße`, `strasse` does not, as in Dovecot).
struct IMAPSearchNeedle {
    /// The needle, lowercased, as UTF-8.
    let bytes: [UInt8]
    /// Whether every byte is ASCII: then haystacks need only ASCII folding.
    let isASCII: Bool
    /// Whether the needle holds a space, tab, CR or LF (text unfolding could then matter).
    let hasWhiteSpace: Bool
    /// For each prefix of `bytes`, the length of its longest proper prefix that is also its suffix.
    private let failure: [Int]

    /// The needle for `text`.
    init(_ text: String) {
        bytes = Array(text.lowercased().utf8)
        isASCII = bytes.allSatisfy { $0 < 0x80 }
        hasWhiteSpace = bytes.contains { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
        var failure = [Int](repeating: 0, count: bytes.count)
        var length = 0
        var index = 1
        while index < bytes.count {
            if bytes[index] == bytes[length] {
                length += 1
                failure[index] = length
                index += 1
            } else if length > 0 {
                length = failure[length - 1]
            } else {
                index += 1
            }
        }
        self.failure = failure
    }

    /// Whether the needle occurs in `haystack`, ASCII letters compared in either case. For a
    /// needle that is not ASCII, `haystack` must already be lowercased (``occurs(inText:)``).
    func occurs(in haystack: UnsafeRawBufferPointer) -> Bool {
        let count = bytes.count
        guard count > 0 else { return true }
        guard haystack.count >= count else { return false }
        return bytes.withUnsafeBufferPointer { needle in
            failure.withUnsafeBufferPointer { failure in
                let first = needle[0]
                var matched = 0
                var index = 0
                let end = haystack.count
                while index < end {
                    if matched == 0 {
                        // The common case: skip ahead to the first byte, a tight loop.
                        while index < end, Self.folded(haystack[index]) != first { index += 1 }
                        if index == end { return false }
                        matched = 1
                        index += 1
                    } else {
                        let byte = Self.folded(haystack[index])
                        if byte == needle[matched] {
                            matched += 1
                            index += 1
                        } else {
                            matched = failure[matched - 1]
                            if matched == 0, byte != first { index += 1 }
                            continue
                        }
                    }
                    if matched == count { return true }
                }
                return false
            }
        }
    }

    /// Whether the needle occurs in `text`, case-insensitively (lowercased first when the needle
    /// is not ASCII).
    func occurs(inText text: String) -> Bool {
        var text = isASCII ? text : text.lowercased()
        return text.withUTF8 { occurs(in: UnsafeRawBufferPointer($0)) }
    }

    /// Whether the needle occurs in `bytes` decoded from `charset`: as bytes for an ASCII needle,
    /// through lowercased text otherwise.
    func occurs(inDecoded bytes: [UInt8], charset: String?) -> Bool {
        if isASCII { return bytes.withUnsafeBytes { occurs(in: $0) } }
        return occurs(inText: MIMECharset.decode(bytes, charset: charset))
    }

    /// `byte` with an ASCII capital letter lowercased.
    @inline(__always)
    static func folded(_ byte: UInt8) -> UInt8 {
        byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
    }
}
