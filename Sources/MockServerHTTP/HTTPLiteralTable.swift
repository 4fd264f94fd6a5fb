/// Literal texts, their bytes one after another in one buffer, looked for by length: a parser gives
/// the text it finds most as a literal `String` rather than one decoded from its bytes each time.
/// The request parser's common field names, and a response head's names, versions and reasons
/// (``HTTPResponseFieldName``), are tables of it.
package struct HTTPLiteralTable: Sendable {
    private let bytes: [UInt8]
    private let starts: [Int]
    private let counts: [Int]
    /// The literals, in the order given (then lower-cased, when asked for).
    package let texts: [String]
    /// Bit `n` is set when a literal has `n` bytes (under 64).
    private let lengths: UInt64

    /// A table of `literals`, and of each lower-cased too when `lowerCasedToo`.
    package init(_ literals: [String], lowerCasedToo: Bool = false) {
        let all = literals + (lowerCasedToo ? literals.map { $0.lowercased() } : [])
        var bytes: [UInt8] = []
        var starts: [Int] = []
        var lengths: UInt64 = 0
        for literal in all {
            starts.append(bytes.count)
            bytes.append(contentsOf: literal.utf8)
            lengths |= literal.utf8.count < 64 ? 1 << UInt64(literal.utf8.count) : 0
        }
        self.bytes = bytes
        self.starts = starts
        counts = all.map(\.utf8.count)
        texts = all
        self.lengths = lengths
    }

    /// Where the literal whose bytes are exactly `text` is.
    package func find(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
        guard text.count < 64, lengths & (1 << UInt64(text.count)) != 0, let base = text.baseAddress else { return nil }
        return bytes.withUnsafeBufferPointer { all in
            counts.withUnsafeBufferPointer { counts in
                for index in counts.indices where counts[index] == text.count {
                    let start = starts[index]
                    var offset = 0
                    while offset < text.count, base[offset] == all[start + offset] { offset += 1 }
                    if offset == text.count { return index }
                }
                return nil
            }
        }
    }

    /// `text` as a `String`: the literal, or decoded.
    package func text(of text: ArraySlice<UInt8>) -> String {
        text.withUnsafeBufferPointer { bytes in
            if let index = find(bytes) { return texts[index] }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
