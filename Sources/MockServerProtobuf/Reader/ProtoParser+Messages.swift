extension ProtoParser {
    /// A field as parsed, before the message it belongs to places it.
    struct ParsedField {
        var field: ProtoField
        /// Its type's name as written, when it names a message or enum (its target set by the caller).
        var reference: ProtoParsedFile.Reference?
        /// The message a group or a map field brings (the group's, or the map's entry).
        var nested: ProtoMessage?
        var nameLocation: ProtoParsedFile.Location
        var numberLocation: ProtoParsedFile.Location
    }

    /// What a message's body declares besides its fields, for the checks at its end.
    struct BodyFacts {
        var reservedNumbers: [ClosedRange<Int64>] = []
        var reservedNames: Set<String> = []
        var extensionRanges: [ClosedRange<Int64>] = []
        var names: [ProtoParsedFile.Location] = []
        var numbers: [ProtoParsedFile.Location] = []
    }

    /// The highest field number.
    static let maxFieldNumber: Int64 = 536_870_911

    /// The scalar types by their names in a `.proto` file.
    static let scalarTypes: [String: ProtoFieldType] = [
        "double": .double, "float": .float, "int64": .int64, "uint64": .uint64, "int32": .int32,
        "fixed64": .fixed64, "fixed32": .fixed32, "bool": .bool, "string": .string, "bytes": .bytes,
        "uint32": .uint32, "sfixed32": .sfixed32, "sfixed64": .sfixed64, "sint32": .sint32, "sint64": .sint64,
    ]

    /// `Name { … }` after `message`: the message at `path` (indexes from the file's messages down).
    mutating func parseMessage(scope: String, path: [Int]) throws -> ProtoMessage {
        let at = location
        let name = try expectIdentifier("the message's name")
        let fullName = Self.join(scope, name)
        declare(fullName, .message, at: at)
        var message = ProtoMessage(name: name, fullName: fullName)
        try expectSymbol("{", "to open message \(name)")
        try parseMessageBody(&message, path: path)
        return message
    }

    /// A message's (or group's) body after its `{`, through its `}`.
    mutating func parseMessageBody(_ message: inout ProtoMessage, path: [Int]) throws {
        try enter()
        var facts = BodyFacts()
        while !consumeSymbol("}") {
            guard peek.kind != .end else { throw error("message \(message.name) is not closed ('}')") }
            if consumeSymbol(";") { continue }
            let next = tokens[position + 1].kind
            let startsDeclaration: Bool = if case .identifier = next { true } else { false }
            if startsDeclaration, consumeKeyword("message") {
                message.nestedMessages.append(try parseMessage(scope: message.fullName, path: path + [message.nestedMessages.count]))
            } else if startsDeclaration, consumeKeyword("enum") {
                message.nestedEnums.append(try parseEnum(scope: message.fullName))
            } else if startsDeclaration || next == .symbol("("), consumeKeyword("option") {
                _ = try parseOptionStatement()
            } else if startsDeclaration, consumeKeyword("oneof") {
                try parseOneof(&message, path: path, facts: &facts)
            } else if startsDeclaration, consumeKeyword("extend") {
                message.nestedMessages += try parseExtend(scope: message.fullName, containerPath: path, nextNestedIndex: message.nestedMessages.count)
            } else if isKeyword("extensions") {
                guard syntax == .proto2 else { throw error("extension ranges are not allowed in proto3") }
                advance()
                facts.extensionRanges += try parseRanges(max: Self.maxFieldNumber, what: "extension")
                _ = try parseFieldOptions()
                try expectSymbol(";", "after the extension ranges")
            } else if consumeKeyword("reserved") {
                try parseReserved(into: &facts.reservedNumbers, names: &facts.reservedNames, max: Self.maxFieldNumber)
            } else {
                let parsed = try parseField(scope: message.fullName, containerPath: path, nextNestedIndex: message.nestedMessages.count, oneof: nil)
                place(parsed, in: &message, path: path, facts: &facts)
            }
        }
        depth -= 1
        try finish(&message, facts: facts)
    }

    /// Adds a parsed field to `message`, its type's reference and its nested message with it.
    mutating func place(_ parsed: ParsedField, in message: inout ProtoMessage, path: [Int], facts: inout BodyFacts) {
        if var reference = parsed.reference {
            reference.target = .field(message: path, field: message.fields.count)
            references.append(reference)
        }
        message.fields.append(parsed.field)
        if let nested = parsed.nested { message.nestedMessages.append(nested) }
        facts.names.append(parsed.nameLocation)
        facts.numbers.append(parsed.numberLocation)
    }

    /// `oneof name { fields }`.
    private mutating func parseOneof(_ message: inout ProtoMessage, path: [Int], facts: inout BodyFacts) throws {
        let index = message.oneofs.count
        message.oneofs.append(try expectIdentifier("the oneof's name"))
        try expectSymbol("{", "to open the oneof")
        while !consumeSymbol("}") {
            if consumeSymbol(";") { continue }
            if consumeKeyword("option") {
                _ = try parseOptionStatement()
                continue
            }
            guard peek.kind != .end else { throw error("oneof \(message.oneofs[index]) is not closed ('}')") }
            var parsed = try parseField(scope: message.fullName, containerPath: path, nextNestedIndex: message.nestedMessages.count, oneof: index)
            parsed.field.oneofIndex = index
            place(parsed, in: &message, path: path, facts: &facts)
        }
    }

    /// `extend Type { fields }`: the fields are parsed and dropped (extensions are not kept), but a
    /// group among them declares a message in `scope`, which is returned to be placed there.
    mutating func parseExtend(scope: String, containerPath: [Int], nextNestedIndex: Int) throws -> [ProtoMessage] {
        _ = try expectDottedName("the extended message's name", allowLeadingDot: true)
        try expectSymbol("{", "to open the extend block")
        var messages: [ProtoMessage] = []
        while !consumeSymbol("}") {
            if consumeSymbol(";") { continue }
            guard peek.kind != .end else { throw error("an extend block is not closed ('}')") }
            let parsed = try parseField(scope: scope, containerPath: containerPath, nextNestedIndex: nextNestedIndex + messages.count,
                                        oneof: nil, isExtension: true)
            if let nested = parsed.nested { messages.append(nested) }
        }
        return messages
    }

    /// One field: `[label] type name = number [options];`, a `map<K, V>` field or a proto2 group.
    /// A group's message or a map's entry becomes message `nextNestedIndex` of the container at `containerPath`.
    mutating func parseField(scope: String, containerPath: [Int], nextNestedIndex: Int, oneof: Int?, isExtension: Bool = false) throws -> ParsedField {
        let labelAt = location
        var label: ProtoField.Label?
        var isProto3Optional = false
        if consumeKeyword("required") {
            guard syntax == .proto2 else { throw error("required fields are not allowed in proto3", at: labelAt) }
            label = .required
        } else if consumeKeyword("optional") {
            label = .optional
            isProto3Optional = syntax == .proto3 && !isExtension
        } else if consumeKeyword("repeated") {
            label = .repeated
        }
        if label != nil, oneof != nil { throw error("fields in a oneof take no label", at: labelAt) }
        if isKeyword("map"), tokens[position + 1].kind == .symbol("<") {
            guard label == nil else { throw error("map fields take no label", at: labelAt) }
            guard oneof == nil else { throw error("map fields are not allowed in a oneof", at: labelAt) }
            return try parseMapField(scope: scope, entryPath: containerPath + [nextNestedIndex])
        }
        if label == nil, oneof == nil, syntax == .proto2 {
            throw error("expected \"required\", \"optional\" or \"repeated\", found \(peek.shown)")
        }
        let resolvedLabel = label ?? (syntax == .proto3 ? .implicit : .optional)
        if isKeyword("group"), case .identifier = tokens[position + 1].kind {
            return try parseGroup(scope: scope, label: resolvedLabel, groupPath: containerPath + [nextNestedIndex])
        }
        let typeAt = location
        let typeName = try expectDottedName("a field's type", allowLeadingDot: true)
        let scalar = Self.scalarTypes[typeName]
        let nameAt = location
        let name = try expectIdentifier("the field's name")
        try expectSymbol("=", "after the field's name")
        let (number, numberAt) = try parseFieldNumber()
        let options = try parseFieldOptions()
        try expectSymbol(";", "after field \(name)")
        var field = ProtoField(name: name, jsonName: options.jsonName, number: number, label: resolvedLabel,
                               type: scalar ?? .message(typeName), isProto3Optional: isProto3Optional)
        field.isPacked = resolvedLabel == .repeated && (scalar?.isPackable ?? true) && (options.packed ?? (syntax == .proto3))
        var reference: ProtoParsedFile.Reference?
        if scalar == nil { reference = .init(name: typeName, scope: scope, location: typeAt, target: .field(message: containerPath, field: -1)) }
        if let (value, valueAt) = options.defaultValue {
            guard syntax == .proto2 else { throw error("default values are not allowed in proto3", at: valueAt) }
            guard resolvedLabel != .repeated else { throw error("repeated fields cannot have a default", at: valueAt) }
            if let scalar {
                field.defaultValue = try descriptorDefault(value, for: scalar, at: valueAt)
            } else {
                guard case .identifier(let word) = value else { throw error("a default for field \(name) must be an enum value's name", at: valueAt) }
                reference?.defaultName = word
                reference?.defaultLocation = valueAt
            }
        }
        return ParsedField(field: field, reference: reference, nested: nil, nameLocation: nameAt, numberLocation: numberAt)
    }

    /// `= number` of a field: 1…536,870,911, not 19,000…19,999 (reserved for protobuf itself).
    private mutating func parseFieldNumber() throws -> (Int32, ProtoParsedFile.Location) {
        let at = location
        let negative = consumeSymbol("-")
        guard case .integer = peek.kind else { throw error("expected a field number, found \(peek.shown)") }
        let value = advance().integerValue
        guard !negative, let value, value >= 1, value <= UInt64(Self.maxFieldNumber) else {
            throw error("field numbers must be 1 to \(Self.maxFieldNumber)", at: at)
        }
        guard !(19000 ... 19999).contains(value) else { throw error("field numbers 19000 to 19999 are reserved for protobuf", at: at) }
        return (Int32(value), at)
    }

    /// `map<K, V> name = number [options];`: a repeated field of a nested `NameEntry` message with
    /// `key` = 1 and `value` = 2, as protoc makes it.
    private mutating func parseMapField(scope: String, entryPath: [Int]) throws -> ParsedField {
        advance()
        advance()
        let keyAt = location
        let keyName = try expectDottedName("the map's key type", allowLeadingDot: true)
        guard let keyType = Self.scalarTypes[keyName] else { throw error("a map's key must be an integer, bool or string type, not \(keyName)", at: keyAt) }
        guard keyType != .float, keyType != .double, keyType != .bytes else {
            throw error("a map's key cannot be float, double or bytes", at: keyAt)
        }
        try expectSymbol(",", "between the map's key and value types")
        let valueAt = location
        let valueName = try expectDottedName("the map's value type", allowLeadingDot: true)
        try expectSymbol(">", "after the map's value type")
        let nameAt = location
        let name = try expectIdentifier("the field's name")
        try expectSymbol("=", "after the field's name")
        let (number, numberAt) = try parseFieldNumber()
        let options = try parseFieldOptions()
        try expectSymbol(";", "after field \(name)")
        if let (_, at) = options.defaultValue { throw error("map fields cannot have a default", at: at) }
        var entryName = ""
        var upperNext = true
        for character in name {
            if character == "_" {
                upperNext = true
            } else {
                entryName += upperNext ? character.uppercased() : String(character)
                upperNext = false
            }
        }
        entryName += "Entry"
        let entryFullName = Self.join(scope, entryName)
        declare(entryFullName, .message, at: nameAt)
        let entryLabel: ProtoField.Label = syntax == .proto3 ? .implicit : .optional
        let valueScalar = Self.scalarTypes[valueName]
        let entry = ProtoMessage(name: entryName, fullName: entryFullName, fields: [
            ProtoField(name: "key", number: 1, label: entryLabel, type: keyType),
            ProtoField(name: "value", number: 2, label: entryLabel, type: valueScalar ?? .message(valueName)),
        ], isMapEntry: true)
        if valueScalar == nil {
            references.append(.init(name: valueName, scope: scope, location: valueAt, target: .field(message: entryPath, field: 1)))
        }
        let field = ProtoField(name: name, jsonName: options.jsonName, number: number, label: .repeated, type: .message("." + entryFullName))
        return ParsedField(field: field, reference: nil, nested: entry, nameLocation: nameAt, numberLocation: numberAt)
    }

    /// `group Name = number { … }` (proto2): a nested message `Name` and a field `name` of type group.
    private mutating func parseGroup(scope: String, label: ProtoField.Label, groupPath: [Int]) throws -> ParsedField {
        let groupAt = location
        guard syntax == .proto2 else { throw error("groups are not allowed in proto3", at: groupAt) }
        advance()
        let nameAt = location
        let name = try expectIdentifier("the group's name")
        guard let first = name.first, first.isUppercase else { throw error("a group's name must start with a capital letter", at: nameAt) }
        try expectSymbol("=", "after the group's name")
        let (number, numberAt) = try parseFieldNumber()
        _ = try parseFieldOptions()
        let fullName = Self.join(scope, name)
        declare(fullName, .message, at: nameAt)
        var message = ProtoMessage(name: name, fullName: fullName)
        try expectSymbol("{", "to open group \(name)")
        try parseMessageBody(&message, path: groupPath)
        let field = ProtoField(name: name.lowercased(), number: number, label: label, type: .group("." + fullName))
        return ParsedField(field: field, reference: nil, nested: message, nameLocation: nameAt, numberLocation: numberAt)
    }

    /// `reserved 2, 15, 9 to 11;` or `reserved "foo", "bar";`.
    mutating func parseReserved(into numbers: inout [ClosedRange<Int64>], names: inout Set<String>, max: Int64, min: Int64 = 1) throws {
        if case .string = peek.kind {
            repeat { names.insert(try expectText("a reserved name")) } while consumeSymbol(",")
        } else {
            numbers += try parseRanges(max: max, min: min, what: "reserved")
        }
        try expectSymbol(";", "after the reserved numbers or names")
    }

    /// `A[ to B|max], …`, each range within `min…max`.
    mutating func parseRanges(max: Int64, min: Int64 = 1, what: String) throws -> [ClosedRange<Int64>] {
        var ranges: [ClosedRange<Int64>] = []
        repeat {
            let at = location
            let low = try parseRangeBound(max: max, min: min, what: what)
            var high = low
            if consumeKeyword("to") {
                high = consumeKeyword("max") ? max : try parseRangeBound(max: max, min: min, what: what)
            }
            guard low <= high else { throw error("\(what) range \(low) to \(high) ends before it starts", at: at) }
            ranges.append(low ... high)
        } while consumeSymbol(",")
        return ranges
    }

    private mutating func parseRangeBound(max: Int64, min: Int64, what: String) throws -> Int64 {
        let at = location
        let negative = consumeSymbol("-")
        guard case .integer = peek.kind, let magnitude = advance().integerValue, magnitude <= UInt64(Int64.max) else {
            throw error("expected a \(what) number", at: at)
        }
        let value = negative ? -Int64(magnitude) : Int64(magnitude)
        guard value >= min, value <= max else { throw error("\(what) numbers must be \(min) to \(max)", at: at) }
        return value
    }

    /// The checks at a message's end, and proto3's synthetic oneofs: numbers and names unique, none
    /// reserved or in an extension range, proto3's JSON names unique; each `optional` field of proto3 in a oneof `_name` (`X` before it while the name is taken) placed
    /// after the real oneofs, as protoc places them.
    private func finish(_ message: inout ProtoMessage, facts: BodyFacts) throws {
        var numbers: [Int32: String] = [:]
        var names: Set<String> = []
        for (index, field) in message.fields.enumerated() {
            if let other = numbers[field.number] {
                throw error("field number \(field.number) is already used by \"\(other)\" in \(message.fullName)", at: facts.numbers[index])
            }
            numbers[field.number] = field.name
            guard names.insert(field.name).inserted else {
                throw error("\"\(field.name)\" is already defined in \(message.fullName)", at: facts.names[index])
            }
            if facts.reservedNumbers.contains(where: { $0.contains(Int64(field.number)) }) {
                throw error("field \"\(field.name)\" uses reserved number \(field.number)", at: facts.numbers[index])
            }
            if facts.reservedNames.contains(field.name) {
                throw error("field name \"\(field.name)\" is reserved", at: facts.names[index])
            }
            if facts.extensionRanges.contains(where: { $0.contains(Int64(field.number)) }) {
                throw error("field number \(field.number) is in an extension range", at: facts.numbers[index])
            }
        }
        if syntax == .proto3 {
            // proto3's JSON mapping needs one field per JSON name: neither the default names nor the
            // names in use may clash, as protoc holds them.
            var defaults: [String: String] = [:]
            var effective: [String: String] = [:]
            for (index, field) in message.fields.enumerated() {
                let defaultName = ProtoField.lowerCamelCase(field.name)
                if let other = defaults.updateValue(field.name, forKey: defaultName) {
                    throw error("the JSON name of \"\(field.name)\" (\(defaultName)) is also that of \"\(other)\"", at: facts.names[index])
                }
                if let other = effective.updateValue(field.name, forKey: field.jsonName) {
                    throw error("the JSON name of \"\(field.name)\" (\(field.jsonName)) is also that of \"\(other)\"", at: facts.names[index])
                }
            }
        }
        var taken = names.union(message.oneofs)
        for index in message.fields.indices where message.fields[index].isProto3Optional {
            let fieldName = message.fields[index].name
            var name = fieldName.hasPrefix("_") ? fieldName : "_" + fieldName
            while taken.contains(name) { name = "X" + name }
            taken.insert(name)
            message.fields[index].oneofIndex = message.oneofs.count
            message.oneofs.append(name)
        }
    }
}
