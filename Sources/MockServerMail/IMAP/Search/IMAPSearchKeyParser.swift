/// Reads search keys from a command's arguments (RFC 9051 §6.4.4 `search-key`, RFC 7162's
/// `MODSEQ`, RFC 5182's `$`), within ``IMAPSearchLimits``.
///
/// It recurses only into what nests: a parenthesized list, and the operand of `NOT` or of `OR`.
/// `OR` chains, left or right (`OR OR a b c`, `OR a OR b c`), are read in one loop into one
/// ``IMAPSearchKey/or(_:)``, and `NOT NOT` cancels, so that 300 alternatives (which Dovecot takes)
/// are one level deep.
struct IMAPSearchKeyParser {
    /// The arguments not read yet.
    private(set) var arguments: ArraySlice<IMAPValue>
    /// The bounds on nesting and on the number of keys.
    let limits: IMAPSearchLimits
    /// The keys read so far in the whole command.
    private var keyCount = 0

    /// A parser of `arguments` (those after SEARCH's RETURN and CHARSET, or a list's contents).
    init(_ arguments: ArraySlice<IMAPValue>, limits: IMAPSearchLimits) {
        self.arguments = arguments
        self.limits = limits
    }

    /// Every key left, as one key (``IMAPSearchKey/and(_:)`` when there are several).
    mutating func program() throws(IMAPSearchError) -> IMAPSearchKey {
        var keys: [IMAPSearchKey] = []
        while !arguments.isEmpty { keys.append(try key(depth: 1)) }
        switch keys.count {
        case 0: throw .bad("Missing search criteria")
        case 1: return keys[0]
        default: return .and(keys)
        }
    }

    /// One key, at nesting `depth`.
    mutating func key(depth: Int) throws(IMAPSearchError) -> IMAPSearchKey {
        guard depth <= limits.depth else { throw .bad("Search criteria nested deeper than \(limits.depth) levels") }
        var negations = 0
        while let name = peekName(), name == "NOT" {
            arguments.removeFirst()
            negations += 1
        }
        if negations > 0 {
            guard !arguments.isEmpty else { throw .bad("Missing search key after NOT") }
            let inner = try key(depth: depth + 1)
            return negations % 2 == 1 ? .not(inner) : inner
        }
        guard let value = arguments.popFirst() else { throw .bad("Missing search key") }
        keyCount += 1
        guard keyCount <= limits.keyCount else { throw .bad("More than \(limits.keyCount) search keys") }
        switch value {
        case .list(let values):
            guard !values.isEmpty else { throw .bad("No search keys inside parentheses") }
            var inner = IMAPSearchKeyParser(values[...], limits: limits)
            inner.keyCount = keyCount
            var keys: [IMAPSearchKey] = []
            while !inner.arguments.isEmpty { keys.append(try inner.key(depth: depth + 1)) }
            keyCount = inner.keyCount
            return keys.count == 1 ? keys[0] : .and(keys)
        case .number(let number):
            return .sequence(try Self.sequenceSet(Array(String(number).utf8), for: "sequence set"))
        case .atom(let atom):
            return try named(atom, depth: depth)
        case .quoted, .literal, .nil, .section:
            throw .bad("Expected a search key, found \(Self.describe(value))")
        }
    }

    /// The key an atom names, its arguments read.
    private mutating func named(_ atom: String, depth: Int) throws(IMAPSearchError) -> IMAPSearchKey {
        let name = atom.uppercased()
        switch name {
        case "ALL": return .all
        case "ANSWERED": return .answered
        case "DELETED": return .deleted
        case "DRAFT": return .draft
        case "FLAGGED": return .flagged
        case "SEEN": return .seen
        case "RECENT": return .recent
        case "NEW": return .new
        case "OLD": return .old
        case "UNANSWERED": return .unanswered
        case "UNDELETED": return .undeleted
        case "UNDRAFT": return .undraft
        case "UNFLAGGED": return .unflagged
        case "UNSEEN": return .unseen
        case "KEYWORD": return .keyword(try flagKeyword(for: name))
        case "UNKEYWORD": return .unkeyword(try flagKeyword(for: name))
        case "BCC": return .bcc(try string(for: name))
        case "CC": return .cc(try string(for: name))
        case "FROM": return .from(try string(for: name))
        case "TO": return .to(try string(for: name))
        case "SUBJECT": return .subject(try string(for: name))
        case "BODY": return .body(try string(for: name))
        case "TEXT": return .text(try string(for: name))
        case "HEADER":
            let field = try string(for: name)
            guard !field.isEmpty, field.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ":") }) else {
                throw .bad("Invalid header field name \"\(field)\" for HEADER")
            }
            return .header(field: field, value: try string(for: name))
        case "BEFORE": return .before(try day(for: name))
        case "ON": return .on(try day(for: name))
        case "SINCE": return .since(try day(for: name))
        case "SENTBEFORE": return .sentBefore(try day(for: name))
        case "SENTON": return .sentOn(try day(for: name))
        case "SENTSINCE": return .sentSince(try day(for: name))
        case "LARGER": return .larger(try number(for: name))
        case "SMALLER": return .smaller(try number(for: name))
        case "UID":
            guard let value = arguments.popFirst(), let bytes = Self.atomBytes(value) else {
                throw .bad("Missing or invalid UID set for UID")
            }
            return .uid(try Self.sequenceSet(bytes, for: "UID set"))
        case "MODSEQ":
            // RFC 7162: MODSEQ [entry-name entry-type-req] mod-sequence-valzer.
            if let first = arguments.first, case .quoted = first {
                arguments.removeFirst()
                guard let type = arguments.popFirst(), case .atom(let text) = type, ["PRIV", "SHARED", "ALL"].contains(text.uppercased()) else {
                    throw .bad("MODSEQ entry type must be priv, shared or all")
                }
            }
            return .modSeq(try number(for: name))
        case "OR":
            return .or(try alternatives(depth: depth))
        default:
            guard let first = atom.utf8.first, first == UInt8(ascii: "*") || first == UInt8(ascii: "$") || (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(first) else {
                throw .bad("Unknown search key \(Self.shorten(atom))")
            }
            return .sequence(try Self.sequenceSet(Array(atom.utf8), for: "sequence set"))
        }
    }

    /// The operands of an `OR` whose name was just read, and of every `OR` met where an operand
    /// starts (each stands for one operand and brings two): all alternatives of the chain.
    private mutating func alternatives(depth: Int) throws(IMAPSearchError) -> [IMAPSearchKey] {
        var alternatives: [IMAPSearchKey] = []
        var needed = 2
        while needed > 0 {
            if let name = peekName(), name == "OR" {
                arguments.removeFirst()
                keyCount += 1
                guard keyCount <= limits.keyCount else { throw .bad("More than \(limits.keyCount) search keys") }
                needed += 1
                continue
            }
            guard !arguments.isEmpty else { throw .bad("Missing search key for OR") }
            let operand = try key(depth: depth + 1)
            if case .or(let inner) = operand { alternatives.append(contentsOf: inner) } else { alternatives.append(operand) }
            needed -= 1
        }
        return alternatives
    }

    /// The upper-cased atom at the front, if the front is an atom.
    private func peekName() -> String? {
        guard case .atom(let text)? = arguments.first else { return nil }
        return text.uppercased()
    }

    /// An astring argument as text (UTF-8; RFC 9051 and CHARSET UTF-8 or US-ASCII).
    private mutating func string(for key: String) throws(IMAPSearchError) -> String {
        guard let value = arguments.popFirst() else { throw .bad("Missing argument for \(key)") }
        guard let bytes = value.stringBytes else { throw .bad("Expected a string for \(key), found \(Self.describe(value))") }
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.utf8.elementsEqual(bytes) else { throw .bad("The string for \(key) is not valid UTF-8") }
        return text
    }

    /// A `flag-keyword` argument: an atom.
    private mutating func flagKeyword(for key: String) throws(IMAPSearchError) -> String {
        guard let value = arguments.popFirst() else { throw .bad("Missing keyword for \(key)") }
        guard case .atom(let atom) = value else { throw .bad("Expected a keyword atom for \(key), found \(Self.describe(value))") }
        return atom
    }

    /// A `date` argument (`1-Feb-1994`, quoted or not).
    private mutating func day(for key: String) throws(IMAPSearchError) -> IMAPSearchDay {
        guard let value = arguments.popFirst() else { throw .bad("Missing date for \(key)") }
        guard let bytes = value.stringBytes, let day = IMAPSearchDay(imapDate: bytes) else {
            throw .bad("Invalid date \(Self.describe(value)) for \(key) (expected d-Mon-yyyy)")
        }
        return day
    }

    /// A `number64` argument (0…2^63−1, RFC 9051).
    private mutating func number(for key: String) throws(IMAPSearchError) -> UInt64 {
        guard let value = arguments.popFirst() else { throw .bad("Missing number for \(key)") }
        guard case .number(let number) = value, number <= UInt64(Int64.max) else {
            throw .bad("Invalid number \(Self.describe(value)) for \(key) (expected 0 to 9223372036854775807)")
        }
        return number
    }

    /// The bytes of an atom or number argument (a sequence set), nil for anything else.
    private static func atomBytes(_ value: IMAPValue) -> [UInt8]? {
        switch value {
        case .atom(let text): Array(text.utf8)
        case .number(let number): Array(String(number).utf8)
        default: nil
        }
    }

    /// A sequence set, its error turned into the BAD text.
    private static func sequenceSet(_ bytes: [UInt8], for what: String) throws(IMAPSearchError) -> IMAPSequenceSet {
        do {
            return try IMAPSequenceSet(bytes: bytes)
        } catch {
            throw .bad("Invalid \(what): \(error.description)")
        }
    }

    /// A value as the client wrote it, shortened, for an error text.
    static func describe(_ value: IMAPValue) -> String {
        switch value {
        case .atom(let text): shorten(text)
        case .number(let number): String(number)
        case .quoted(let bytes), .literal(let bytes, _): "\"" + shorten(String(decoding: bytes, as: UTF8.self)) + "\""
        case .nil: "NIL"
        case .list: "a list"
        case .section(let name, _, _): shorten(name) + "[…]"
        }
    }

    /// `text` cut to 40 characters.
    static func shorten(_ text: String) -> String {
        text.count > 40 ? String(text.prefix(40)) + "…" : text
    }
}
