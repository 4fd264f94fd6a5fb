extension IMAPFetchRequest {
    /// The items of `ALL`, `FAST` and `FULL` (RFC 3501 §6.4.5).
    private static let macros: [String: [IMAPFetchAttribute]] = [
        "ALL": [.flags, .internalDate, .rfc822Size, .envelope],
        "FAST": [.flags, .internalDate, .rfc822Size],
        "FULL": [.flags, .internalDate, .rfc822Size, .envelope, .body],
    ]

    /// The items named by a plain atom.
    private static let simpleItems: [String: IMAPFetchAttribute] = [
        "UID": .uid, "FLAGS": .flags, "INTERNALDATE": .internalDate, "RFC822.SIZE": .rfc822Size,
        "ENVELOPE": .envelope, "BODY": .body, "BODYSTRUCTURE": .bodyStructure, "MODSEQ": .modSeq,
        "RFC822": .rfc822, "RFC822.HEADER": .rfc822Header, "RFC822.TEXT": .rfc822Text,
    ]

    /// The most part numbers a section may have (MIMELimits' default depth is 32; a few more for
    /// message/rfc822 levels still answer "no such part" rather than `BAD`).
    static let maximumPartDepth = 64

    /// Reads the arguments that follow the sequence set: one item (an atom or a section item) or a
    /// parenthesized list of them, then optionally the modifier list `(CHANGEDSINCE n [VANISHED])`.
    package static func parse(_ arguments: ArraySlice<IMAPValue>) -> Result<IMAPFetchRequest, IMAPFetchError> {
        do {
            guard let first = arguments.first else { throw IMAPFetchError.missingItems }
            var attributes: [IMAPFetchAttribute] = []
            switch first {
            case .list(let items):
                guard !items.isEmpty else { throw IMAPFetchError.emptyItemList }
                for item in items { try attribute(item, allowMacro: false).forEach { add($0, to: &attributes) } }
            default:
                try attribute(first, allowMacro: true).forEach { add($0, to: &attributes) }
            }
            var request = IMAPFetchRequest(attributes: attributes)
            let rest = arguments.dropFirst()
            if let modifiers = rest.first {
                guard rest.count == 1 else { throw IMAPFetchError.trailingArguments }
                try request.readModifiers(modifiers)
            }
            return .success(request)
        } catch let error as IMAPFetchError {
            return .failure(error)
        } catch {
            preconditionFailure("only IMAPFetchError is thrown, not \(error)")
        }
    }

    /// Adds `attribute` unless it is there already.
    private static func add(_ attribute: IMAPFetchAttribute, to attributes: inout [IMAPFetchAttribute]) {
        if !attributes.contains(attribute) { attributes.append(attribute) }
    }

    /// The item or items one value names.
    private static func attribute(_ value: IMAPValue, allowMacro: Bool) throws -> [IMAPFetchAttribute] {
        switch value {
        case .atom(let name):
            let upper = name.uppercased()
            if let item = simpleItems[upper] { return [item] }
            if allowMacro, let items = macros[upper] { return items }
            throw IMAPFetchError.unknownItem(name)
        case .section(let name, let section, let partial):
            return [try sectionItem(name: name, section: section, partial: partial)]
        case .number(let number):
            throw IMAPFetchError.unknownItem(String(number))
        case .nil:
            throw IMAPFetchError.unknownItem("NIL")
        case .quoted, .literal, .list:
            throw IMAPFetchError.unexpectedValue
        }
    }

    /// A `BODY[…]`, `BODY.PEEK[…]`, `BINARY[…]`, `BINARY.PEEK[…]` or `BINARY.SIZE[…]` item.
    private static func sectionItem(name: String, section: [IMAPValue], partial: IMAPPartial?) throws -> IMAPFetchAttribute {
        let upper = name.uppercased()
        if let partial, partial.count == nil { throw IMAPFetchError.badPartial(upper + "[]") }
        switch upper {
        case "BODY", "BODY.PEEK":
            return .bodySection(try bodySection(section), partial: partial, peek: upper == "BODY.PEEK")
        case "BINARY", "BINARY.PEEK":
            return .binary(part: try binaryPart(section), partial: partial, peek: upper == "BINARY.PEEK")
        case "BINARY.SIZE":
            guard partial == nil else { throw IMAPFetchError.badPartial("BINARY.SIZE[]") }
            return .binarySize(part: try binaryPart(section))
        default:
            throw IMAPFetchError.unknownItem(name)
        }
    }

    /// The section of a BODY item: `[]`, `[1.2]`, `[HEADER]`, `[1.HEADER.FIELDS (A B)]`, `[1.MIME]`.
    static func bodySection(_ values: [IMAPValue]) throws -> IMAPSection {
        guard let first = values.first else { return IMAPSection() }
        let spec: String
        switch first {
        case .atom(let text): spec = text
        case .number(let number): spec = String(number)
        default: throw IMAPFetchError.badSection(echo(values), reason: "expected part numbers or HEADER, TEXT, MIME")
        }
        // Part numbers up to the first component that is not digits.
        var part: [Int] = []
        var components = spec.split(separator: ".", omittingEmptySubsequences: false)[...]
        while let component = components.first, component.first?.isASCII == true, component.first?.isNumber == true {
            part.append(try partNumber(component, section: values))
            components = components.dropFirst()
        }
        guard part.count <= maximumPartDepth else {
            throw IMAPFetchError.badSection(echo(values), reason: "more than \(maximumPartDepth) part numbers")
        }
        let keyword = components.joined(separator: ".").uppercased()
        let fieldList = values.dropFirst()
        switch keyword {
        case "":
            guard fieldList.isEmpty, !spec.hasSuffix(".") else { throw IMAPFetchError.badSection(echo(values), reason: "unexpected text after the part numbers") }
            return IMAPSection(part: part)
        case "HEADER", "TEXT", "MIME":
            guard fieldList.isEmpty else { throw IMAPFetchError.badSection(echo(values), reason: "\(keyword) takes no field names") }
            if keyword == "MIME", part.isEmpty { throw IMAPFetchError.badSection(echo(values), reason: "MIME needs part numbers") }
            return IMAPSection(part: part, text: keyword == "HEADER" ? .header : keyword == "TEXT" ? .text : .mime)
        case "HEADER.FIELDS", "HEADER.FIELDS.NOT":
            guard fieldList.count == 1, case .list(let items) = fieldList.first!, !items.isEmpty else {
                throw IMAPFetchError.badSection(echo(values), reason: "\(keyword) needs a list of field names")
            }
            let names = try items.map { try fieldName($0, section: values) }
            return IMAPSection(part: part, text: keyword == "HEADER.FIELDS" ? .headerFields(names) : .headerFieldsNot(names))
        default:
            throw IMAPFetchError.badSection(echo(values), reason: "unknown section text \(components.joined(separator: "."))")
        }
    }

    /// The part numbers of a BINARY item: `[]` or `[1.2]`, nothing else (RFC 3516 `section-binary`).
    static func binaryPart(_ values: [IMAPValue]) throws -> [Int] {
        guard let first = values.first else { return [] }
        let spec: String
        switch first {
        case .atom(let text) where values.count == 1: spec = text
        case .number(let number) where values.count == 1: spec = String(number)
        default: throw IMAPFetchError.badSection(echo(values), reason: "BINARY takes part numbers only")
        }
        let part = try spec.split(separator: ".", omittingEmptySubsequences: false).map { try partNumber($0, section: values) }
        guard part.count <= maximumPartDepth else {
            throw IMAPFetchError.badSection(echo(values), reason: "more than \(maximumPartDepth) part numbers")
        }
        return part
    }

    /// One part number: a nonzero 32-bit number (RFC 9051 `nz-number`).
    private static func partNumber(_ text: Substring, section: [IMAPValue]) throws -> Int {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let number = UInt32(text), number > 0 else {
            throw IMAPFetchError.badSection(echo(section), reason: "part number \(text.isEmpty ? "missing" : String(text)) is not a nonzero 32-bit number")
        }
        return Int(number)
    }

    /// A header field name of HEADER.FIELDS: an astring of printable ASCII without `:` (RFC 5322
    /// `ftext`) that also makes an atom, so that the echo needs no quoting.
    private static func fieldName(_ value: IMAPValue, section: [IMAPValue]) throws -> String {
        guard let bytes = value.stringBytes, !bytes.isEmpty, bytes.allSatisfy({ IMAPOutput.isAStringChar($0) && $0 != 0x3A && $0 != 0x5D }) else {
            throw IMAPFetchError.badSection(echo(section), reason: "invalid header field name")
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A section's values as text, for an error message.
    private static func echo(_ values: [IMAPValue]) -> String {
        values.map(echo).joined(separator: " ")
    }

    private static func echo(_ value: IMAPValue) -> String {
        switch value {
        case .atom(let text): return text
        case .number(let number): return String(number)
        case .quoted(let bytes), .literal(let bytes, _): return "\"" + String(decoding: bytes.prefix(64), as: UTF8.self) + "\""
        case .nil: return "NIL"
        case .list(let items): return "(" + echo(items) + ")"
        case .section(let name, let section, _): return name + "[" + echo(section) + "]"
        }
    }

    /// Reads `(CHANGEDSINCE n [VANISHED])` (RFC 7162 §3.2.4, §3.2.6), in either order.
    private mutating func readModifiers(_ value: IMAPValue) throws {
        guard case .list(let items) = value, !items.isEmpty else { throw IMAPFetchError.trailingArguments }
        var index = 0
        while index < items.count {
            guard case .atom(let name) = items[index] else { throw IMAPFetchError.badModifier("expected a modifier name") }
            switch name.uppercased() {
            case "CHANGEDSINCE":
                guard changedSince == nil else { throw IMAPFetchError.badModifier("CHANGEDSINCE given twice") }
                guard index + 1 < items.count, case .number(let modSeq) = items[index + 1], modSeq <= UInt64(Int64.max) else {
                    throw IMAPFetchError.badModifier("CHANGEDSINCE needs a mod-sequence (0 to 2^63-1)")
                }
                changedSince = modSeq
                index += 2
            case "VANISHED":
                guard !vanished else { throw IMAPFetchError.badModifier("VANISHED given twice") }
                vanished = true
                index += 1
            default:
                throw IMAPFetchError.badModifier("unknown modifier \(name)")
            }
        }
        if vanished, changedSince == nil { throw IMAPFetchError.vanishedWithoutChangedSince }
        if changedSince != nil, !attributes.contains(.modSeq) { attributes.append(.modSeq) }
    }
}
