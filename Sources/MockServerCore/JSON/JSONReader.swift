/// The package's one JSON parser: RFC 8259 over bytes, every problem reported with the line and
/// column where it is (columns count characters).
///
/// ``Options/lenient`` is how response and endpoints files are read: trailing commas in objects
/// and arrays are accepted (the original MockServer's sample files have them) and a repeated key is
/// an error. ``Options/strict`` is JSON exactly, as for mock-data files and request bodies, where a
/// repeated key is allowed and kept. A byte-order mark at the start is skipped.
package struct JSONReader {
    /// What the reader accepts beyond RFC 8259, and what it refuses within it.
    package struct Options: Sendable {
        /// Whether `[1, 2,]` and `{"a": 1,}` are accepted.
        package var trailingCommas: Bool
        /// Whether an object may repeat a key (both members are kept, in order).
        package var repeatedKeys: Bool

        /// Response files: trailing commas, no repeated keys.
        package static let lenient = Options(trailingCommas: true, repeatedKeys: false)
        /// JSON exactly (repeated keys are valid JSON).
        package static let strict = Options(trailingCommas: false, repeatedKeys: true)
        /// What either of the others accepts: how masks read a body, so that a secret never stays in
        /// one for being JSON of one kind only (a repeated key, a trailing comma).
        package static let accepting = Options(trailingCommas: true, repeatedKeys: true)
    }

    /// A syntax problem and where it is.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// What is wrong.
        package let message: String
        /// Where.
        package let location: JSONNode.Location

        /// `line:column: message`.
        package var description: String { "\(location): \(message)" }
    }

    private let bytes: [UInt8]
    private let options: Options
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0
    /// The last place whose column was counted, and that column: the next location on the same
    /// line counts on from there, so that a line of n values costs O(n), not O(n²) (a 100 KB
    /// array on one line took seconds when every value counted from the line's start).
    private var counted = (index: 0, column: 1)
    private static let maximumDepth = 512

    /// Parses a whole document: one value, white space around it allowed.
    package static func parse(_ bytes: [UInt8], options: Options = .lenient) throws(Failure) -> JSONNode {
        var reader = JSONReader(bytes: bytes, options: options)
        try reader.checkUTF8()
        reader.skipWhitespace()
        let value = try reader.parseValue()
        reader.skipWhitespace()
        guard reader.index == bytes.count else { throw reader.failure("unexpected \(reader.describeCurrent()) after the top-level value") }
        return value
    }

    private init(bytes: [UInt8], options: Options) {
        self.bytes = bytes
        self.options = options
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3; lineStart = 3 }
    }

    private var location: JSONNode.Location {
        mutating get {
            // From the line's start when the last count was on another line or further on.
            if counted.index < lineStart || counted.index > index { counted = (lineStart, 1) }
            // Columns count characters: UTF-8 continuation bytes do not start one.
            var column = counted.column
            for byte in bytes[counted.index..<index] where byte & 0xC0 != 0x80 { column += 1 }
            counted = (index, column)
            return JSONNode.Location(line: line, column: column)
        }
    }

    private mutating func failure(_ message: String) -> Failure { Failure(message: message, location: location) }

    private mutating func checkUTF8() throws(Failure) {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        var lineNumber = 1
        var column = 1
        while true {
            let before = offset
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                offset += String(scalar).utf8.count
                if scalar == "\n" { lineNumber += 1; column = 1 } else { column += 1 }
            case .emptyInput:
                return
            case .error:
                throw Failure(message: "the file is not valid UTF-8 (byte offset \(before))", location: JSONNode.Location(line: lineNumber, column: column))
            }
        }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A: index += 1; line += 1; lineStart = index
            default: return
            }
        }
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of file" }
        let byte = bytes[index]
        return byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }

    private mutating func parseValue() throws(Failure) -> JSONNode {
        guard index < bytes.count else { throw failure("expected a value but the file ended") }
        let start = location
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return JSONNode(kind: .string(try parseString()), location: start)
        case UInt8(ascii: "t"): try expectWord("true"); return JSONNode(kind: .bool(true), location: start)
        case UInt8(ascii: "f"): try expectWord("false"); return JSONNode(kind: .bool(false), location: start)
        case UInt8(ascii: "n"): try expectWord("null"); return JSONNode(kind: .null, location: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let (value, text) = try parseNumber()
            return JSONNode(kind: .number(value), location: start, numberText: text)
        default: throw failure("expected a value but found \(describeCurrent())")
        }
    }

    private mutating func expectWord(_ word: String) throws(Failure) {
        let expected = Array(word.utf8)
        guard bytes[index...].starts(with: expected) else { throw failure("expected \(word) but found \(describeCurrent())") }
        index += expected.count
    }

    private mutating func enter() throws(Failure) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw failure("values nested deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func parseObject() throws(Failure) -> JSONNode {
        let start = location
        try enter()
        index += 1
        var members: [JSONNode.Member] = []
        var seen: [String: JSONNode.Location] = [:]
        skipWhitespace()
        while true {
            guard index < bytes.count else { throw failure("the file ended inside an object that starts at \(start)") }
            if bytes[index] == UInt8(ascii: "}") { index += 1; break }
            guard bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a key in quotes or '}' but found \(describeCurrent())") }
            let keyLocation = location
            let key = try parseString()
            if !options.repeatedKeys {
                if let first = seen[key] { throw Failure(message: "duplicate key \"\(key)\" (first at \(first))", location: keyLocation) }
                seen[key] = keyLocation
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("expected ':' after the key \"\(key)\" but found \(describeCurrent())") }
            index += 1
            skipWhitespace()
            members.append(JSONNode.Member(key: key, keyLocation: keyLocation, value: try parseValue()))
            skipWhitespace()
            guard index < bytes.count else { throw failure("the file ended inside an object that starts at \(start)") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                skipWhitespace()
                if !options.trailingCommas && index < bytes.count && bytes[index] == UInt8(ascii: "}") { throw failure("a comma may not come before '}' (JSON allows no trailing comma)") }
                continue
            }
            if bytes[index] == UInt8(ascii: "}") { index += 1; break }
            throw failure("expected ',' or '}' but found \(describeCurrent())")
        }
        depth -= 1
        return JSONNode(kind: .object(members), location: start)
    }

    private mutating func parseArray() throws(Failure) -> JSONNode {
        let start = location
        try enter()
        index += 1
        var elements: [JSONNode] = []
        skipWhitespace()
        while true {
            guard index < bytes.count else { throw failure("the file ended inside an array that starts at \(start)") }
            if bytes[index] == UInt8(ascii: "]") { index += 1; break }
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw failure("the file ended inside an array that starts at \(start)") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                skipWhitespace()
                if !options.trailingCommas && index < bytes.count && bytes[index] == UInt8(ascii: "]") { throw failure("a comma may not come before ']' (JSON allows no trailing comma)") }
                continue
            }
            if bytes[index] == UInt8(ascii: "]") { index += 1; break }
            throw failure("expected ',' or ']' but found \(describeCurrent())")
        }
        depth -= 1
        return JSONNode(kind: .array(elements), location: start)
    }

    private mutating func parseString() throws(Failure) -> String {
        let start = location
        index += 1
        var scalars = String.UnicodeScalarView()
        var run = index
        func flushRun(_ end: Int) {
            if run < end { scalars.append(contentsOf: String(decoding: bytes[run..<end], as: UTF8.self).unicodeScalars) }
        }
        while true {
            guard index < bytes.count else { throw failure("the file ended inside a string that starts at \(start)") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                flushRun(index)
                index += 1
                return String(scalars)
            }
            if byte < 0x20 {
                throw failure(byte == 0x0A ? "a string may not span lines: write \\n (the string starts at \(start))" : "control character 0x\(String(byte, radix: 16)) in a string: escape it")
            }
            if byte != UInt8(ascii: "\\") { index += 1; continue }
            flushRun(index)
            index += 1
            guard index < bytes.count else { throw failure("the file ended inside an escape sequence") }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"): scalars.append(try parseUnicodeEscape())
            default:
                index -= 2
                throw failure("unknown escape \\\(Character(Unicode.Scalar(escape))) in a string (write \\\\ for a backslash)")
            }
            run = index
        }
    }

    private mutating func parseUnicodeEscape() throws(Failure) -> Unicode.Scalar {
        let first = try parseHex4()
        if (0xD800...0xDBFF).contains(first) {
            guard bytes[index...].starts(with: Array("\\u".utf8)) else { throw failure("a \\u\(String(first, radix: 16)) high surrogate must be followed by a \\u low surrogate") }
            index += 2
            let second = try parseHex4()
            guard (0xDC00...0xDFFF).contains(second) else { throw failure("\\u\(String(second, radix: 16)) is not a low surrogate") }
            return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
        }
        guard let scalar = Unicode.Scalar(first) else { throw failure("\\u\(String(first, radix: 16)) is a lone low surrogate") }
        return scalar
    }

    private mutating func parseHex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[index..<(index + 4)], as: UTF8.self), radix: 16) else {
            throw failure("\\u must be followed by four hexadecimal digits")
        }
        index += 4
        return value
    }

    private mutating func parseNumber() throws(Failure) -> (Double, String) {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func digits() -> Int {
            let from = index
            while index < bytes.count && bytes[index] >= 0x30 && bytes[index] <= 0x39 { index += 1 }
            return index - from
        }
        let integerDigits = digits()
        guard integerDigits > 0 else { throw failure("expected a digit in a number") }
        if integerDigits > 1 && bytes[index - integerDigits] == UInt8(ascii: "0") {
            index = start
            throw failure("a number may not start with 0")
        }
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw failure("expected a digit after the decimal point") }
        }
        if index < bytes.count && (bytes[index] | 0x20) == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) { index += 1 }
            guard digits() > 0 else { throw failure("expected a digit in the exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            index = start
            throw failure("the number is out of range")
        }
        return (value, text)
    }
}
