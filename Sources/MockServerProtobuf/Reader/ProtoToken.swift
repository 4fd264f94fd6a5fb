/// One token of a `.proto` file: what it is, and where it starts (1-based line and column).
package struct ProtoToken: Sendable, Hashable {
    /// The kinds of token the language has.
    package enum Kind: Sendable, Hashable {
        /// A name or keyword (`message`, `int32`, `Point`): letters, digits and `_`, not first a digit.
        case identifier(String)
        /// An integer as written (`42`, `0x2A`, `052`): ``ProtoToken/integerValue`` reads it.
        case integer(String)
        /// A floating-point number as written (`1.5`, `1e10`, `.5`).
        case float(String)
        /// A string literal's bytes, escapes decoded, adjacent literals joined.
        case string([UInt8])
        /// One punctuation character (`{`, `=`, `;`, `.`, `-`…).
        case symbol(Character)
        /// The end of the file.
        case end
    }

    package var kind: Kind
    package var line: Int
    package var column: Int

    package init(_ kind: Kind, line: Int, column: Int) {
        self.kind = kind
        self.line = line
        self.column = column
    }

    /// The integer's value, or `nil` when it is not an integer or does not fit 64 bits.
    package var integerValue: UInt64? {
        guard case .integer(let text) = kind else { return nil }
        if text.hasPrefix("0x") || text.hasPrefix("0X") { return UInt64(text.dropFirst(2), radix: 16) }
        if text.count > 1, text.hasPrefix("0") { return UInt64(text.dropFirst(), radix: 8) }
        return UInt64(text)
    }

    /// How the token reads in an error message (`'{'`, `identifier "Point"`, `end of file`).
    package var shown: String {
        switch kind {
        case .identifier(let name): "\"\(name)\""
        case .integer(let text), .float(let text): text
        case .string: "a string"
        case .symbol(let symbol): "'\(symbol)'"
        case .end: "the end of the file"
        }
    }
}
