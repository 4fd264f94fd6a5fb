import MockServerCore

/// A strict JSON parser (RFC 8259) over bytes, for request bodies and `.json` mock-data files: it
/// says where a document goes wrong, by line and column.
package struct JSONValueParser {
    /// Where and why a document is not JSON.
    package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The line, from 1.
        package let line: Int
        /// The column, from 1, counted in bytes.
        package let column: Int
        /// What is wrong there.
        package let message: String

        package var description: String { "line \(line), column \(column): \(message)" }
    }

    private let bytes: [UInt8]
    private var position = 0
    private var depth = 0
    private static let maximumDepth = 512

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The value `bytes` hold (one value, optionally surrounded by white space).
    package static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        var parser = JSONValueParser(bytes)
        parser.skipSpace()
        let value = try parser.value()
        parser.skipSpace()
        guard parser.position == bytes.count else { throw parser.failure("unexpected text after the JSON value") }
        return value
    }

    private func failure(_ message: String) -> Failure {
        var line = 1
        var lineStart = 0
        for index in 0..<min(position, bytes.count) where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        return Failure(line: line, column: position - lineStart + 1, message: message)
    }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipSpace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0a || byte == 0x0d { position += 1 }
    }

    private mutating func value() throws(Failure) -> JSONValue {
        guard let byte = current else { throw failure("a value is missing at the end") }
        switch byte {
        case UInt8(ascii: "{"): return try nested { parser throws(Failure) in try parser.object() }
        case UInt8(ascii: "["): return try nested { parser throws(Failure) in try parser.array() }
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw failure("unexpected character \(Self.show(byte))")
        }
    }

    private mutating func nested(_ body: (inout JSONValueParser) throws(Failure) -> JSONValue) throws(Failure) -> JSONValue {
        depth += 1
        guard depth <= Self.maximumDepth else { throw failure("nested more than \(Self.maximumDepth) deep") }
        defer { depth -= 1 }
        return try body(&self)
    }

    private mutating func object() throws(Failure) -> JSONValue {
        position += 1
        var members: [(key: String, value: JSONValue)] = []
        skipSpace()
        if current == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard current == UInt8(ascii: "\"") else { throw failure("an object key must be a string") }
            let key = try string()
            skipSpace()
            guard current == UInt8(ascii: ":") else { throw failure("\":\" expected after the key \"\(key)\"") }
            position += 1
            skipSpace()
            members.append((key, try value()))
            skipSpace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"): position += 1; return .object(members)
            default: throw failure("\",\" or \"}\" expected in an object")
            }
        }
    }

    private mutating func array() throws(Failure) -> JSONValue {
        position += 1
        var elements: [JSONValue] = []
        skipSpace()
        if current == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            skipSpace()
            elements.append(try value())
            skipSpace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"): position += 1; return .array(elements)
            default: throw failure("\",\" or \"]\" expected in an array")
            }
        }
    }

    private mutating func literal(_ word: String) throws(Failure) {
        let text = word.utf8
        guard bytes.count - position >= text.count, bytes[position..<position + text.count].elementsEqual(text) else {
            throw failure("unexpected text (\"\(word)\" expected?)")
        }
        position += text.count
    }

    private mutating func number() throws(Failure) -> String {
        let start = position
        if current == UInt8(ascii: "-") { position += 1 }
        guard let first = current, Self.isDigit(first) else { throw failure("a digit must follow \"-\"") }
        position += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if current == UInt8(ascii: ".") {
            position += 1
            guard let digit = current, Self.isDigit(digit) else { throw failure("a digit must follow the decimal point") }
            skipDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard let digit = current, Self.isDigit(digit) else { throw failure("a digit must follow the exponent") }
            skipDigits()
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private mutating func skipDigits() {
        while let byte = current, Self.isDigit(byte) { position += 1 }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private mutating func string() throws(Failure) -> String {
        position += 1
        var text: [UInt8] = []
        while true {
            guard let byte = current else { throw failure("a string is not closed") }
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                guard let result = String(exactUTF8: text) else { throw failure("a string is not valid UTF-8") }
                return result
            case UInt8(ascii: "\\"):
                position += 1
                try escape(into: &text)
            case 0..<0x20:
                throw failure("control character \(Self.show(byte)) in a string (escape it)")
            default:
                text.append(byte)
                position += 1
            }
        }
    }

    private mutating func escape(into text: inout [UInt8]) throws(Failure) {
        guard let byte = current else { throw failure("a string is not closed") }
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(byte)
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "f"): text.append(0x0c)
        case UInt8(ascii: "n"): text.append(0x0a)
        case UInt8(ascii: "r"): text.append(0x0d)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hexQuad()
            if (0xd800..<0xdc00).contains(scalar) {
                guard current == UInt8(ascii: "\\"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u") else {
                    throw failure("a high surrogate \\u\(String(scalar, radix: 16)) must be followed by a low one")
                }
                position += 2
                let low = try hexQuad()
                guard (0xdc00..<0xe000).contains(low) else { throw failure("\\u\(String(low, radix: 16)) is not a low surrogate") }
                scalar = 0x10000 + ((scalar - 0xd800) << 10) + (low - 0xdc00)
            } else if (0xdc00..<0xe000).contains(scalar) {
                throw failure("a lone low surrogate \\u\(String(scalar, radix: 16))")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw failure("\\u\(String(scalar, radix: 16)) is not a character") }
            text.append(contentsOf: Array(String(Character(unicode)).utf8))
        default:
            position -= 2
            throw failure("unknown escape \\\(Self.show(byte))")
        }
    }

    private mutating func hexQuad() throws(Failure) -> UInt32 {
        guard bytes.count - position >= 4, let value = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16) else {
            throw failure("\\u must be followed by four hexadecimal digits")
        }
        position += 4
        return value
    }

    private static func show(_ byte: UInt8) -> String {
        (0x21..<0x7f).contains(byte) ? "\"\(Character(Unicode.Scalar(byte)))\"" : "0x" + String(byte, radix: 16, uppercase: true)
    }
}
