/// Parses the segments of one command received so far (text lines and the literals between
/// them) into a tag, a name and values: pure, re-run by ``IMAPCommandReader`` after each line.
struct IMAPCommandParser {
    /// What the segments make.
    enum Outcome: Equatable {
        /// A complete command.
        case complete(IMAPCommand)
        /// The last line ends with a literal marker that was accepted: its data comes next.
        case literalFollows(size: Int, synchronizing: Bool, binary: Bool)
        /// The command is malformed; the tag if one was read.
        case malformed(tag: String?, IMAPSyntaxError)
    }

    /// Signals, while parsing, that the last line ended with an accepted literal marker.
    private struct LiteralFollows: Error {
        var size: Int
        var synchronizing: Bool
        var binary: Bool
    }

    private static let space: UInt8 = 0x20, quote: UInt8 = 0x22, backslash: UInt8 = 0x5C
    private static let open: UInt8 = 0x28, close: UInt8 = 0x29, openBracket: UInt8 = 0x5B
    private static let closeBracket: UInt8 = 0x5D, openBrace: UInt8 = 0x7B, tilde: UInt8 = 0x7E
    /// The atoms after which `[` opens a FETCH section rather than being part of the atom.
    private static let sectionNames: Set<String> = ["BODY", "BODY.PEEK", "BINARY", "BINARY.PEEK", "BINARY.SIZE"]

    private let segments: [IMAPCommandSegment]
    private let limits: IMAPReaderLimits
    /// The segment being read (always a text one) and the position in it.
    private var segment = 0, position = 0
    private var valueCount = 0
    /// Whether a section's brackets are open (then `]` ends an atom instead of joining it).
    private var inSection = false

    /// A parser of `segments` (text, then literal and text pairs) under `limits`.
    init(segments: [IMAPCommandSegment], limits: IMAPReaderLimits) {
        self.segments = segments
        self.limits = limits
    }

    /// The text of the segment being read.
    private var line: [UInt8] {
        if case .text(let bytes) = segments[segment] { return bytes }
        return []
    }

    /// Parses the whole command.
    mutating func parse() -> Outcome {
        var tag: String?
        do {
            // A tag is astring characters but `+` (RFC 9051 §9): no `%`, `*` or `\\` either.
            let tagBytes = takeAtomBytes { $0 != 0x2B && $0 != 0x25 && $0 != 0x2A && $0 != Self.backslash }
            guard !tagBytes.isEmpty, peek() == Self.space else {
                return .malformed(tag: nil, .missingTag)
            }
            tag = String(decoding: tagBytes, as: UTF8.self)
            position += 1
            let name = takeAtomBytes { _ in true }
            guard !name.isEmpty else { return .malformed(tag: tag, .missingCommandName) }
            var arguments: [IMAPValue] = []
            while true {
                skipSpaces()
                guard let byte = peek() else { break }
                if byte == Self.close || byte == Self.closeBracket { throw IMAPSyntaxError.unexpectedClose(byte) }
                arguments.append(try value(depth: 0))
            }
            return .complete(IMAPCommand(tag: tag!, name: String(decoding: name, as: UTF8.self).uppercased(),
                                         arguments: arguments))
        } catch let follows as LiteralFollows {
            return .literalFollows(size: follows.size, synchronizing: follows.synchronizing, binary: follows.binary)
        } catch let error as IMAPSyntaxError {
            return .malformed(tag: tag, error)
        } catch {
            preconditionFailure("the parser throws only its two error types, not \(error)")
        }
    }

    private func peek() -> UInt8? {
        position < line.count ? line[position] : nil
    }

    private mutating func skipSpaces() {
        while peek() == Self.space { position += 1 }
    }

    /// Whether `byte` may be part of an atom here (lenient as servers are: `%`, `*`, `\`, `[`
    /// and `]` allowed; no space, control, 8-bit, `(`, `)`, `{` or `"`).
    private static func isAtomByte(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F && byte != open && byte != close && byte != openBrace && byte != quote
    }

    /// Takes the longest run of atom bytes that also pass `extra`.
    private mutating func takeAtomBytes(_ extra: (UInt8) -> Bool) -> [UInt8] {
        let start = position
        let text = line
        while position < text.count, Self.isAtomByte(text[position]), extra(text[position]) { position += 1 }
        return Array(text[start..<position])
    }

    /// Reads one value starting here, `depth` lists deep.
    private mutating func value(depth: Int) throws -> IMAPValue {
        valueCount += 1
        guard valueCount <= limits.argumentCount else { throw IMAPSyntaxError.tooManyArguments(limit: limits.argumentCount) }
        guard let byte = peek() else { throw IMAPSyntaxError.unclosedList }
        switch byte {
        case Self.open:
            guard depth < limits.nestingDepth else { throw IMAPSyntaxError.nestedTooDeep(limit: limits.nestingDepth) }
            position += 1
            return .list(try values(until: Self.close, depth: depth + 1))
        case Self.quote:
            return .quoted(try quotedString())
        case Self.openBrace:
            return try literal(binary: false)
        case Self.tilde where position + 1 < line.count && line[position + 1] == Self.openBrace:
            position += 1
            return try literal(binary: true)
        default:
            return try atom(depth: depth)
        }
    }

    /// Reads values up to the `closer` byte, which it consumes.
    private mutating func values(until closer: UInt8, depth: Int) throws -> [IMAPValue] {
        var items: [IMAPValue] = []
        while true {
            skipSpaces()
            guard let byte = peek() else { throw IMAPSyntaxError.unclosedList }
            if byte == closer { position += 1; return items }
            if byte == Self.close || byte == Self.closeBracket { throw IMAPSyntaxError.unexpectedClose(byte) }
            items.append(try value(depth: depth))
        }
    }

    private mutating func quotedString() throws -> [UInt8] {
        position += 1
        var bytes: [UInt8] = []
        let text = line
        while position < text.count {
            let byte = text[position]
            position += 1
            switch byte {
            case Self.quote: return bytes
            case Self.backslash:
                guard position < text.count else { throw IMAPSyntaxError.unterminatedQuotedString }
                let escaped = text[position]
                guard escaped == Self.quote || escaped == Self.backslash else { throw IMAPSyntaxError.badEscape(escaped) }
                bytes.append(escaped)
                position += 1
            case 0x00, 0x0D, 0x0A: throw IMAPSyntaxError.unexpectedByte(byte, offset: position - 1)
            default: bytes.append(byte)
            }
        }
        throw IMAPSyntaxError.unterminatedQuotedString
    }

    /// Reads `{n}` or `{n+}` (the `~` already taken for a literal8), which must end the line,
    /// and the literal's data from the next segment; throws ``LiteralFollows`` if it has not
    /// arrived yet.
    private mutating func literal(binary: Bool) throws -> IMAPValue {
        let text = line
        position += 1
        var size: UInt64? = 0
        var digits = 0
        while position < text.count, (0x30...0x39).contains(text[position]) {
            if let current = size {
                let (times, overflowTimes) = current.multipliedReportingOverflow(by: 10)
                let (sum, overflowSum) = times.addingReportingOverflow(UInt64(text[position] - 0x30))
                size = overflowTimes || overflowSum ? nil : sum
            }
            digits += 1
            position += 1
        }
        var synchronizing = true
        if position < text.count, text[position] == 0x2B { synchronizing = false; position += 1 }
        guard digits > 0, position < text.count, text[position] == 0x7D, position + 1 == text.count else {
            throw IMAPSyntaxError.badLiteralMarker
        }
        position += 1
        let limit = synchronizing ? limits.literalSize : limits.nonSynchronizingLiteralSize
        guard let size, size <= limit, size <= UInt64(Int.max) else {
            throw IMAPSyntaxError.literalTooLarge(size: size, limit: limit, synchronizing: synchronizing)
        }
        guard segment + 2 < segments.count, case .literal(let data, _) = segments[segment + 1] else {
            throw LiteralFollows(size: Int(size), synchronizing: synchronizing, binary: binary)
        }
        segment += 2
        position = 0
        return .literal(data, binary: binary)
    }

    /// Reads an atom, a number, NIL, or a FETCH item with its `[section]<partial>`.
    private mutating func atom(depth: Int) throws -> IMAPValue {
        let bytes = takeAtomBytes { $0 != Self.openBracket && $0 != Self.closeBracket }
        let name = String(decoding: bytes, as: UTF8.self)
        if peek() == Self.openBracket, !bytes.isEmpty, Self.sectionNames.contains(name.uppercased()) {
            guard depth < limits.nestingDepth else { throw IMAPSyntaxError.nestedTooDeep(limit: limits.nestingDepth) }
            position += 1
            let outer = inSection
            inSection = true
            let section = try values(until: Self.closeBracket, depth: depth + 1)
            inSection = outer
            return .section(name: name, section: section, partial: try partial())
        }
        // Not a section: brackets are part of the atom (`[Gmail]/Sent`).
        var whole = bytes
        if !inSection { whole += takeAtomBytes { _ in true } }
        guard !whole.isEmpty else { throw IMAPSyntaxError.unexpectedByte(peek() ?? 0, offset: position) }
        let text = String(decoding: whole, as: UTF8.self)
        if text.uppercased() == "NIL" { return .nil }
        if whole.allSatisfy({ (0x30...0x39).contains($0) }), let number = UInt64(text) { return .number(number) }
        return .atom(text)
    }

    /// Reads `<offset.count>` after a section, if there.
    private mutating func partial() throws -> IMAPPartial? {
        guard peek() == 0x3C else { return nil }
        let text = line
        guard let end = text[position...].firstIndex(of: 0x3E) else { throw IMAPSyntaxError.badPartial }
        let inside = String(decoding: text[(position + 1)..<end], as: UTF8.self)
        position = end + 1
        let parts = inside.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let offset = UInt32(parts[0]) else { throw IMAPSyntaxError.badPartial }
        guard parts.count == 2 else { return IMAPPartial(offset: offset, count: nil) }
        guard let count = UInt32(parts[1]), count > 0 else { throw IMAPSyntaxError.badPartial }
        return IMAPPartial(offset: offset, count: count)
    }
}
