/// The literal text that every match of a regular expression must contain, found by reading the
/// pattern's leading characters, so that most lines are rejected without running the regex engine.
///
/// The analysis is deliberately conservative: it stops at the first character that is not plainly
/// literal (a class, group, escape sequence, quantified character) and gives up on any pattern with
/// an alternation. For `^NOOP` it finds `NOOP`, anchored; for `USER (\w+)` it finds `USER `.
struct LiteralPrefix: Sendable, Hashable {
    /// The literal bytes (ASCII only).
    let bytes: [UInt8]
    /// Whether the pattern starts with `^`, so a match must start with ``bytes``.
    let anchored: Bool
    /// Whether the pattern is nothing but this literal, so the regex engine is not needed at all.
    let isWholePattern: Bool

    /// Characters that mean themselves outside a character class.
    private static let plain = Set(Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-,:;'\"/=!@%&<>~`".utf8))
    /// Characters that an escape turns into themselves.
    private static let escapable = Set(Array(".*?+()[]{}\\|^$/-".utf8))
    private static let quantifiers = Set(Array("*?+{".utf8))

    /// Analyses `pattern`; `nil` when no literal can be relied on.
    init?(pattern: String) {
        let source = Array(pattern.utf8)
        guard !source.contains(UInt8(ascii: "|")) else { return nil }
        var index = 0
        let anchored = source.first == UInt8(ascii: "^")
        if anchored { index = 1 }
        var literal: [UInt8] = []
        while index < source.count {
            let byte = source[index]
            let width: Int
            let value: UInt8
            if Self.plain.contains(byte) {
                (width, value) = (1, byte)
            } else if byte == UInt8(ascii: "\\"), index + 1 < source.count, Self.escapable.contains(source[index + 1]) {
                (width, value) = (2, source[index + 1])
            } else {
                break
            }
            if index + width < source.count && Self.quantifiers.contains(source[index + width]) { break }
            literal.append(value)
            index += width
        }
        guard !literal.isEmpty else { return nil }
        self.bytes = literal
        self.anchored = anchored
        self.isWholePattern = index == source.count
    }

    /// Whether `input` can match: it starts with the literal (anchored) or contains it.
    func admits(_ input: [UInt8]) -> Bool {
        let count = bytes.count
        guard input.count >= count else { return false }
        return input.withUnsafeBufferPointer { haystack in
            bytes.withUnsafeBufferPointer { needle in
                let first = needle[0]
                let last = anchored ? 0 : haystack.count - count
                var start = 0
                while start <= last {
                    if haystack[start] == first {
                        var offset = 1
                        while offset < count && haystack[start + offset] == needle[offset] { offset += 1 }
                        if offset == count { return true }
                    }
                    start += 1
                }
                return false
            }
        }
    }
}
