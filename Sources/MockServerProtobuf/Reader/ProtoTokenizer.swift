/// Splits a `.proto` file's bytes into tokens: comments (`//`, `/* */`) and white space dropped,
/// strings with C escapes (`\n`, `\x41`, `\101`, `\u00e9`, `\U0001F600`) decoded and adjacent ones
/// joined, numbers (decimal, hex, octal, floats) kept as written. Each token has its line and column
/// (columns count characters: a UTF-8 sequence is one). Pure code.
package struct ProtoTokenizer {
    /// The file's name, for errors.
    private let file: String
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var column = 1

    private init(file: String, bytes: [UInt8]) {
        self.file = file
        self.bytes = bytes
    }

    /// The tokens of `bytes`, the last one ``ProtoToken/Kind/end``.
    /// - Throws: ``ProtoError`` at an unterminated comment or string, a bad escape, a string that
    ///   crosses a line, or a character the language has no use for.
    package static func tokens(of bytes: [UInt8], file: String) throws(ProtoError) -> [ProtoToken] {
        try ProtoError.typed { try allTokens(of: bytes, file: file) }
    }

    private static func allTokens(of bytes: [UInt8], file: String) throws -> [ProtoToken] {
        var tokenizer = ProtoTokenizer(file: file, bytes: bytes)
        // A UTF-8 byte order mark, as some editors write one, is not part of the text.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { tokenizer.index = 3 }
        var tokens: [ProtoToken] = []
        while true {
            let token = try tokenizer.next()
            if case .string(let value) = token.kind, case .string(let previous)? = tokens.last?.kind {
                tokens[tokens.count - 1].kind = .string(previous + value)
                continue
            }
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private func error(_ reason: String, line: Int? = nil, column: Int? = nil) -> ProtoError {
        ProtoError(file: file, line: line ?? self.line, column: column ?? self.column, reason: reason)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private func peek(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }

    /// Moves past one byte, keeping the line and column.
    private mutating func advance() {
        let byte = bytes[index]
        index += 1
        if byte == 0x0A {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            column += 1
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (0x41 ... 0x5A).contains(byte) || (0x61 ... 0x7A).contains(byte) || byte == 0x5F
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30 ... 0x39).contains(byte) }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case 0x30 ... 0x39: UInt32(byte - 0x30)
        case 0x41 ... 0x46: UInt32(byte - 0x41 + 10)
        case 0x61 ... 0x66: UInt32(byte - 0x61 + 10)
        default: nil
        }
    }

    /// Skips white space and comments.
    private mutating func skipSpace() throws {
        while let byte = current {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C:
                advance()
            case 0x2F where peek(1) == 0x2F:
                while let next = current, next != 0x0A { advance() }
            case 0x2F where peek(1) == 0x2A:
                let (startLine, startColumn) = (line, column)
                advance()
                advance()
                while true {
                    guard let next = current else { throw error("a comment that is never closed (*/)", line: startLine, column: startColumn) }
                    if next == 0x2A, peek(1) == 0x2F {
                        advance()
                        advance()
                        break
                    }
                    advance()
                }
            default:
                return
            }
        }
    }

    private mutating func next() throws -> ProtoToken {
        try skipSpace()
        let (startLine, startColumn) = (line, column)
        func token(_ kind: ProtoToken.Kind) -> ProtoToken { ProtoToken(kind, line: startLine, column: startColumn) }
        guard let byte = current else { return token(.end) }
        let start = index
        if Self.isLetter(byte) {
            while let next = current, Self.isLetter(next) || Self.isDigit(next) { advance() }
            return token(.identifier(String(decoding: bytes[start ..< index], as: UTF8.self)))
        }
        if Self.isDigit(byte) || (byte == 0x2E && peek(1).map(Self.isDigit) == true) {
            return token(try number())
        }
        if byte == 0x22 || byte == 0x27 {
            return token(.string(try string()))
        }
        guard byte < 0x80, byte > 0x20, byte != 0x7F, !Self.isDigit(byte) else {
            throw error(byte < 0x80 ? "unexpected character (byte \(byte))" : "unexpected non-ASCII character outside a string or comment")
        }
        advance()
        return token(.symbol(Character(Unicode.Scalar(byte))))
    }

    /// A number: `0x…`, octal `0…`, decimal, or a float with `.` or an exponent.
    private mutating func number() throws -> ProtoToken.Kind {
        let start = index
        if current == 0x30, let x = peek(1), x == 0x78 || x == 0x58 {
            advance()
            advance()
            guard let first = current, Self.hexValue(first) != nil else { throw error("\"0x\" must be followed by hex digits") }
            while let next = current, Self.hexValue(next) != nil { advance() }
            try refuseLetterAfterNumber()
            return .integer(String(decoding: bytes[start ..< index], as: UTF8.self))
        }
        var isFloat = false
        while let next = current, Self.isDigit(next) { advance() }
        if current == 0x2E {
            isFloat = true
            advance()
            while let next = current, Self.isDigit(next) { advance() }
        }
        if let e = current, e == 0x65 || e == 0x45 {
            isFloat = true
            advance()
            if let sign = current, sign == 0x2B || sign == 0x2D { advance() }
            guard let digit = current, Self.isDigit(digit) else { throw error("an exponent needs digits") }
            while let next = current, Self.isDigit(next) { advance() }
        }
        try refuseLetterAfterNumber()
        let text = String(decoding: bytes[start ..< index], as: UTF8.self)
        if !isFloat, text.count > 1, text.hasPrefix("0"), text.contains(where: { $0 == "8" || $0 == "9" }) {
            throw error("\(text) is not an octal number", column: column - text.count)
        }
        return isFloat ? .float(text) : .integer(text)
    }

    private func refuseLetterAfterNumber() throws {
        if let next = current, Self.isLetter(next) || next == 0x2E { throw error("a number must be followed by a space or a symbol") }
    }

    /// A quoted string's bytes with its escapes decoded (the quote it opens with closes it).
    private mutating func string() throws -> [UInt8] {
        let quote = bytes[index]
        let (startLine, startColumn) = (line, column)
        advance()
        var value: [UInt8] = []
        while true {
            guard let byte = current, byte != 0x0A else {
                throw error("a string that is not closed on its line", line: startLine, column: startColumn)
            }
            if byte == quote {
                advance()
                return value
            }
            if byte != 0x5C {
                value.append(byte)
                advance()
                continue
            }
            let (escapeLine, escapeColumn) = (line, column)
            advance()
            guard let escape = current, escape != 0x0A else { throw error("a string that is not closed on its line", line: startLine, column: startColumn) }
            advance()
            switch escape {
            case 0x61: value.append(0x07)
            case 0x62: value.append(0x08)
            case 0x66: value.append(0x0C)
            case 0x6E: value.append(0x0A)
            case 0x72: value.append(0x0D)
            case 0x74: value.append(0x09)
            case 0x76: value.append(0x0B)
            case 0x5C, 0x27, 0x22, 0x3F: value.append(escape)
            case 0x78, 0x58:
                var code: UInt32 = 0
                var count = 0
                while count < 2, let next = current, let digit = Self.hexValue(next) {
                    code = code * 16 + digit
                    count += 1
                    advance()
                }
                guard count > 0 else { throw error("\\x must be followed by a hex digit", line: escapeLine, column: escapeColumn) }
                value.append(UInt8(code))
            case 0x30 ... 0x37:
                var code = UInt32(escape - 0x30)
                var count = 1
                while count < 3, let next = current, (0x30 ... 0x37).contains(next) {
                    code = code * 8 + UInt32(next - 0x30)
                    count += 1
                    advance()
                }
                guard code <= 0xFF else { throw error("octal escape \\\(String(code, radix: 8)) is past 255", line: escapeLine, column: escapeColumn) }
                value.append(UInt8(code))
            case 0x75, 0x55:
                let width = escape == 0x75 ? 4 : 8
                var code: UInt32 = 0
                for _ in 0 ..< width {
                    guard let next = current, let digit = Self.hexValue(next) else {
                        throw error("\\\(escape == 0x75 ? "u" : "U") must be followed by \(width) hex digits", line: escapeLine, column: escapeColumn)
                    }
                    code = code &* 16 &+ digit
                    advance()
                }
                guard let scalar = Unicode.Scalar(code) else {
                    throw error("\\\(escape == 0x75 ? "u" : "U") names no Unicode character", line: escapeLine, column: escapeColumn)
                }
                value.append(contentsOf: Array(String(Character(scalar)).utf8))
            default:
                throw error("invalid escape \\\(Character(Unicode.Scalar(escape)))", line: escapeLine, column: escapeColumn)
            }
        }
    }
}
