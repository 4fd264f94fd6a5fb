import MockServerCore

/// Binary to JSON: a message's bytes as the proto3 JSON mapping writes them.
///
/// What it keeps of the wire format's rules: a singular field given twice is its last value (an
/// embedded message's occurrences are merged), a oneof holds its last member, a repeated scalar is
/// read packed or not whatever the schema says, a map's repeated key is its last entry. Unknown
/// fields, fields whose wire type is not their type's (protobuf keeps both as unknown fields) and a
/// closed enum's unknown numbers are dropped from the JSON: JSON has no place for them.
extension ProtoJSONCodec {
    /// The JSON of `bytes` read as the message type named `type` (with or without a leading dot).
    /// - Parameters:
    ///   - emittingDefaults: whether fields without presence at their default value are written
    ///     (`0`, `""`, `false`, `[]`, `{}`, the enum's first name), as matching and templates want
    ///     them; a message field never set is absent either way.
    package func json(fromBinary bytes: [UInt8], type: String, emittingDefaults: Bool = false) throws(ProtoWireError) -> JSONNode {
        guard let kind = kind(ofType: type) else { throw ProtoWireError(.unknownType(type), at: 0) }
        return try messageJSON(kind, bytes, [bytes.startIndex ..< bytes.endIndex], depth: 1, emittingDefaults)
    }

    /// What a field holds while its message is read.
    private enum Slot {
        case absent
        case value(JSONNode)
        case list([JSONNode])
        /// A singular message's occurrences, merged when it is written.
        case ranges([Range<Int>])
        /// A map's entries in first-seen order, and each key's place among them.
        case map([JSONNode.Member], [String: Int])
    }

    /// The JSON of a message of `kind` (a message, a group's message or a well-known type) whose
    /// occurrences in `bytes` are `ranges` (merged, as the wire format merges them).
    func messageJSON(_ kind: ProtoMessageLayout.Kind, _ bytes: [UInt8], _ ranges: [Range<Int>], depth: Int,
                     _ emit: Bool) throws(ProtoWireError) -> JSONNode {
        guard depth <= Self.maximumDepth else { throw ProtoWireError(.tooDeep(limit: Self.maximumDepth), at: ranges.first?.lowerBound ?? 0) }
        var source = bytes
        var range = ranges.first ?? 0 ..< 0
        if ranges.count > 1 {
            source = []
            for part in ranges { source.append(contentsOf: bytes[part]) }
            range = 0 ..< source.count
        }
        switch kind {
        case .message(let index), .group(let index): return try objectJSON(index, source, range, depth: depth, emit)
        case .wellKnown(let known): return try wellKnownJSON(known, source, range, depth: depth, emit)
        default: return .null
        }
    }

    /// The JSON object of the message `layouts[index]` in `bytes[range]`.
    private func objectJSON(_ index: Int, _ bytes: [UInt8], _ range: Range<Int>, depth: Int, _ emit: Bool) throws(ProtoWireError) -> JSONNode {
        let layout = layouts[index]
        var slots = [Slot](repeating: .absent, count: layout.fields.count)
        var reader = ProtoWireReader(bytes, range: range)
        while let (number, wire) = try reader.tag() {
            guard let position = layout.index(ofNumber: number) else {
                _ = try reader.skip(wire, field: number, depth: Self.maximumDepth - depth)
                continue
            }
            let field = layout.fields[position]
            switch field.kind {
            case .map(let entry):
                guard wire == .lengthDelimited else { break }
                let (key, value) = try mapEntryJSON(entry, bytes, try reader.lengthDelimited(), depth: depth + 1, emit)
                let member = JSONNode.Member(key: key, keyLocation: JSONNode.madeLocation, value: value)
                if case .map(var members, var places) = slots[position] {
                    slots[position] = .absent
                    if let place = places[key] { members[place] = member } else {
                        places[key] = members.count
                        members.append(member)
                    }
                    slots[position] = .map(members, places)
                } else {
                    slots[position] = .map([member], [key: 0])
                }
                continue
            case .message, .wellKnown:
                guard wire == .lengthDelimited else { break }
                let value = try reader.lengthDelimited()
                if field.isRepeated {
                    append(try messageJSON(field.kind, bytes, [value], depth: depth + 1, emit), to: &slots[position])
                } else {
                    if case .ranges(var list) = slots[position] {
                        slots[position] = .absent
                        list.append(value)
                        slots[position] = .ranges(list)
                    } else {
                        slots[position] = .ranges([value])
                    }
                    clearOtherMembers(of: field, at: position, in: layout, &slots)
                }
                continue
            case .group:
                guard wire == .startGroup else { break }
                let whole = try reader.skip(.startGroup, field: number, depth: Self.maximumDepth - depth)
                let value = whole.lowerBound ..< whole.upperBound - Self.varintLength(UInt64(UInt32(number)) << 3 | 4)
                if field.isRepeated {
                    append(try messageJSON(field.kind, bytes, [value], depth: depth + 1, emit), to: &slots[position])
                } else {
                    if case .ranges(var list) = slots[position] {
                        slots[position] = .absent
                        list.append(value)
                        slots[position] = .ranges(list)
                    } else {
                        slots[position] = .ranges([value])
                    }
                    clearOtherMembers(of: field, at: position, in: layout, &slots)
                }
                continue
            case .scalar, .enumeration, .nullValue:
                if field.isRepeated, wire == .lengthDelimited, field.field.type.isPackable {
                    var packed = ProtoWireReader(bytes, range: try reader.lengthDelimited())
                    var items: [JSONNode] = []
                    if case .list(let existing) = slots[position] {
                        slots[position] = .absent
                        items = existing
                    }
                    while !packed.isAtEnd {
                        if let (value, _) = try scalarJSON(field, wire: field.wireType, &packed) { items.append(value) }
                    }
                    slots[position] = .list(items)
                    continue
                }
                guard wire == field.wireType else { break }
                guard let (value, isZero) = try scalarJSON(field, wire: wire, &reader) else { continue }
                if field.isRepeated {
                    append(value, to: &slots[position])
                } else {
                    slots[position] = isZero && !field.hasPresence ? .absent : .value(value)
                    clearOtherMembers(of: field, at: position, in: layout, &slots)
                }
                continue
            case .unresolved:
                break
            }
            // A wire type that is not the field's: an unknown field, as protobuf keeps it.
            _ = try reader.skip(wire, field: number, depth: Self.maximumDepth - depth)
        }
        var members: [JSONNode.Member] = []
        members.reserveCapacity(layout.fields.count)
        for (position, field) in layout.fields.enumerated() {
            let value: JSONNode
            switch slots[position] {
            case .absent:
                guard emit, !field.hasPresence else { continue }
                value = defaultJSON(field)
            case .value(let node): value = node
            case .list(let items):
                guard emit || !items.isEmpty else { continue }
                value = JSONNode(kind: .array(items), location: JSONNode.madeLocation)
            case .ranges(let list): value = try messageJSON(field.kind, bytes, list, depth: depth + 1, emit)
            case .map(let entries, _): value = JSONNode(kind: .object(entries), location: JSONNode.madeLocation)
            }
            members.append(JSONNode.Member(key: field.field.jsonName, keyLocation: JSONNode.madeLocation, value: value))
        }
        return JSONNode(kind: .object(members), location: JSONNode.madeLocation)
    }

    /// Appends `value` to a repeated field's slot.
    private func append(_ value: JSONNode, to slot: inout Slot) {
        if case .list(var items) = slot {
            slot = .absent
            items.append(value)
            slot = .list(items)
        } else {
            slot = .list([value])
        }
    }

    /// Empties the slots of the other members of `field`'s oneof: a oneof holds its last member.
    private func clearOtherMembers(of field: ProtoMessageLayout.Field, at position: Int, in layout: ProtoMessageLayout, _ slots: inout [Slot]) {
        guard let oneof = field.field.oneofIndex, oneof < layout.oneofMembers.count else { return }
        for member in layout.oneofMembers[oneof] where member != position { slots[member] = .absent }
    }

    /// A map entry's key as JSON writes it (always a string) and its value (the value type's
    /// default when the entry has none).
    private func mapEntryJSON(_ entry: Int, _ bytes: [UInt8], _ range: Range<Int>, depth: Int, _ emit: Bool) throws(ProtoWireError) -> (String, JSONNode) {
        let layout = layouts[entry]
        guard depth <= Self.maximumDepth else { throw ProtoWireError(.tooDeep(limit: Self.maximumDepth), at: range.lowerBound) }
        var key: JSONNode?
        var value: JSONNode?
        var valueRanges: [Range<Int>] = []
        let keyField = layout.index(ofNumber: 1).map { layout.fields[$0] }
        let valueField = layout.index(ofNumber: 2).map { layout.fields[$0] }
        var reader = ProtoWireReader(bytes, range: range)
        while let (number, wire) = try reader.tag() {
            if number == 1, let keyField, wire == keyField.wireType, let (node, _) = try scalarJSON(keyField, wire: wire, &reader) {
                key = node
            } else if number == 2, let valueField {
                switch valueField.kind {
                case .message, .wellKnown:
                    if wire == .lengthDelimited {
                        valueRanges.append(try reader.lengthDelimited())
                    } else {
                        _ = try reader.skip(wire, field: number, depth: Self.maximumDepth - depth)
                    }
                case .scalar, .enumeration, .nullValue:
                    if wire == valueField.wireType {
                        if let (node, _) = try scalarJSON(valueField, wire: wire, &reader) { value = node }
                    } else {
                        _ = try reader.skip(wire, field: number, depth: Self.maximumDepth - depth)
                    }
                default:
                    _ = try reader.skip(wire, field: number, depth: Self.maximumDepth - depth)
                }
            } else {
                _ = try reader.skip(wire, field: number, depth: Self.maximumDepth - depth)
            }
        }
        let keyText: String
        switch (key ?? keyField.map(defaultJSON) ?? .string(""))?.kind {
        case .string(let text): keyText = text
        case .bool(let flag): keyText = flag ? "true" : "false"
        default: keyText = key?.numberText ?? "0"
        }
        if let valueField {
            switch valueField.kind {
            case .message, .wellKnown:
                value = try messageJSON(valueField.kind, bytes, valueRanges.isEmpty ? [range.upperBound ..< range.upperBound] : valueRanges, depth: depth + 1, emit)
            default:
                if value == nil { value = defaultJSON(valueField) }
            }
        }
        return (keyText, value ?? .null)
    }

    /// The JSON of one scalar or enum value of `field` read from `reader` (wire type `wire`), and
    /// whether it is the type's zero; `nil` for a closed enum's unknown number.
    func scalarJSON(_ field: ProtoMessageLayout.Field, wire: ProtoWireType, _ reader: inout ProtoWireReader) throws(ProtoWireError) -> (JSONNode, Bool)? {
        let type = field.field.type
        switch field.kind {
        case .enumeration(let index):
            let number = Int32(truncatingIfNeeded: try reader.varint())
            let layout = enums[index]
            if let name = layout.json(number) { return (.string(name), number == 0) }
            if layout.isClosed { return nil }
            return (.number(Int(number)), number == 0)
        case .nullValue:
            // Every number is JSON's null, which a field without presence leaves out.
            _ = try reader.varint()
            return (.null, true)
        default:
            return try Self.scalarJSON(type, name: field.field.name, &reader)
        }
    }

    /// The JSON of one value of scalar `type` from `reader`, and whether it is the type's zero.
    static func scalarJSON(_ type: ProtoFieldType, name: String, _ reader: inout ProtoWireReader) throws(ProtoWireError) -> (JSONNode, Bool) {
        switch type {
        case .int32:
            let value = Int32(truncatingIfNeeded: try reader.varint())
            return (integer(String(value), Double(value)), value == 0)
        case .uint32:
            let value = UInt32(truncatingIfNeeded: try reader.varint())
            return (integer(String(value), Double(value)), value == 0)
        case .sint32:
            let value = Int32(truncatingIfNeeded: ProtoWireReader.zigzag(UInt64(UInt32(truncatingIfNeeded: try reader.varint()))))
            return (integer(String(value), Double(value)), value == 0)
        case .int64:
            let value = Int64(bitPattern: try reader.varint())
            return (.string(String(value)), value == 0)
        case .uint64:
            let value = try reader.varint()
            return (.string(String(value)), value == 0)
        case .sint64:
            let value = ProtoWireReader.zigzag(try reader.varint())
            return (.string(String(value)), value == 0)
        case .bool:
            let value = try reader.varint()
            return (.bool(value != 0), value == 0)
        case .fixed32:
            let value = try reader.fixed32()
            return (integer(String(value), Double(value)), value == 0)
        case .sfixed32:
            let value = Int32(bitPattern: try reader.fixed32())
            return (integer(String(value), Double(value)), value == 0)
        case .fixed64:
            let value = try reader.fixed64()
            return (.string(String(value)), value == 0)
        case .sfixed64:
            let value = Int64(bitPattern: try reader.fixed64())
            return (.string(String(value)), value == 0)
        case .float:
            let bits = try reader.fixed32()
            return (floatJSON(Float(bitPattern: bits)), bits == 0)
        case .double:
            let bits = try reader.fixed64()
            return (doubleJSON(Double(bitPattern: bits)), bits == 0)
        case .string:
            let start = reader.index
            let range = try reader.lengthDelimited()
            guard let text = String(validating: reader.bytes[range], as: UTF8.self) else { throw ProtoWireError(.invalidUTF8(field: name), at: start) }
            return (.string(text), range.isEmpty)
        case .bytes:
            let range = try reader.lengthDelimited()
            return (.string(Base64.encode(reader.bytes[range])), range.isEmpty)
        case .message, .group, .enum:
            _ = try reader.varint()
            return (.null, true)
        }
    }

    /// An integer JSON number with its text.
    @inline(__always) static func integer(_ text: String, _ value: Double) -> JSONNode {
        JSONNode(kind: .number(value), location: JSONNode.madeLocation, numberText: text)
    }

    /// A float as JSON: its shortest text that reads back as the same float, or `"NaN"`,
    /// `"Infinity"`, `"-Infinity"`.
    static func floatJSON(_ value: Float) -> JSONNode {
        if value.isNaN { return .string("NaN") }
        if value.isInfinite { return .string(value < 0 ? "-Infinity" : "Infinity") }
        var text = value.description
        // `-0.0` stays as written: `-0` reads back as the integer zero.
        if text.hasSuffix(".0"), value != 0 { text.removeLast(2) }
        return JSONNode(kind: .number(Double(text) ?? Double(value)), location: JSONNode.madeLocation, numberText: text)
    }

    /// A double as JSON: its shortest text, or `"NaN"`, `"Infinity"`, `"-Infinity"`.
    static func doubleJSON(_ value: Double) -> JSONNode {
        if value.isNaN { return .string("NaN") }
        if value.isInfinite { return .string(value < 0 ? "-Infinity" : "Infinity") }
        if value == 0 { return JSONNode(kind: .number(value), location: JSONNode.madeLocation, numberText: value.sign == .minus ? "-0.0" : "0") }
        return .number(value)
    }

    /// A field's value when it is absent, as the mapping writes it with defaults: `0` (`"0"` for
    /// 64-bit integers), `false`, `""`, the enum's first name, `null` for NullValue, `[]` for a
    /// repeated field, `{}` for a map.
    func defaultJSON(_ field: ProtoMessageLayout.Field) -> JSONNode {
        if field.isRepeated { return .array([]) }
        switch field.kind {
        case .map: return JSONNode(kind: .object([]), location: JSONNode.madeLocation)
        case .enumeration(let index): return .string(enums[index].defaultName)
        case .nullValue: return .null
        case .scalar(let type): return Self.defaultJSON(type)
        default: return .null
        }
    }

    /// A scalar type's zero as JSON.
    static func defaultJSON(_ type: ProtoFieldType) -> JSONNode {
        switch type {
        case .int64, .uint64, .sint64, .fixed64, .sfixed64: .string("0")
        case .bool: .bool(false)
        case .string, .bytes: .string("")
        default: .number(0)
        }
    }

    /// How many bytes the varint of `value` takes.
    static func varintLength(_ value: UInt64) -> Int {
        var length = 1
        var rest = value >> 7
        while rest != 0 {
            length += 1
            rest >>= 7
        }
        return length
    }
}
