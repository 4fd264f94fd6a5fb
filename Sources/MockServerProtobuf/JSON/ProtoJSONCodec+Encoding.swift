import MockServerCore

/// JSON to binary: a message written in the proto3 JSON mapping, as its bytes.
///
/// Accepted as the mapping says parsers accept: fields by JSON name or proto name, integers as
/// numbers or strings (`1e2` as a number), 64-bit integers exactly, enums by name or number, `null`
/// as an absent field (and as `NullValue` and `Value`'s null), bytes in either base64 alphabet,
/// padded or not, `"NaN"`, `"Infinity"` and `"-Infinity"` for floats. Refused, naming the JSON path
/// and its line and column: an unknown field, a field given twice, two members of one oneof, a value
/// of the wrong type or out of its type's range, an enum name the enum lacks, a bad timestamp.
/// Fields are written in number order; a repeated scalar is packed when its field is.
extension ProtoJSONCodec {
    /// The bytes of `json` read as the message type named `type` (with or without a leading dot).
    package func binary(fromJSON json: JSONNode, type: String) throws(ProtoJSONError) -> [UInt8] {
        guard let kind = kind(ofType: type) else { throw ProtoJSONError(path: "$", at: json.location, "type \(type) is not in the schema") }
        var writer = ProtoWireWriter()
        try writeMessage(kind, json, path: "$", depth: 1, into: &writer)
        return writer.bytes
    }

    /// One value ready for the wire, before its tag.
    enum WireValue {
        case varint(UInt64)
        case fixed32(UInt32)
        case fixed64(UInt64)
        case bytes([UInt8])

        /// Whether it is its type's zero (a field without presence is then not written).
        var isZero: Bool {
            switch self {
            case .varint(let value), .fixed64(let value): value == 0
            case .fixed32(let value): value == 0
            case .bytes(let value): value.isEmpty
            }
        }

        /// Writes the value (no tag).
        func write(into writer: inout ProtoWireWriter) {
            switch self {
            case .varint(let value): writer.varint(value)
            case .fixed32(let value): writer.fixed32(value)
            case .fixed64(let value): writer.fixed64(value)
            case .bytes(let value): writer.lengthDelimited(value)
            }
        }
    }

    /// Writes the message of `kind` that `json` is (a message's fields, a group's, a well-known type).
    func writeMessage(_ kind: ProtoMessageLayout.Kind, _ json: JSONNode, path: String, depth: Int, into writer: inout ProtoWireWriter) throws(ProtoJSONError) {
        guard depth <= Self.maximumDepth else { throw ProtoJSONError(path: path, at: json.location, "messages nested more than \(Self.maximumDepth) deep") }
        switch kind {
        case .message(let index), .group(let index): try writeObject(index, json, path: path, depth: depth, skipping: nil, into: &writer)
        case .wellKnown(let known): try writeWellKnown(known, json, path: path, depth: depth, into: &writer)
        case .unresolved(let name): throw ProtoJSONError(path: path, at: json.location, "type \(name) is not in the schema")
        default: throw ProtoJSONError(path: path, at: json.location, "not a message")
        }
    }

    /// Writes the fields of the message `layouts[index]` that the object `json` gives, in number
    /// order (`skipping` a key that is not a field: an `Any`'s `@type`).
    func writeObject(_ index: Int, _ json: JSONNode, path: String, depth: Int, skipping: String?, into writer: inout ProtoWireWriter) throws(ProtoJSONError) {
        let layout = layouts[index]
        guard case .object(let members) = json.kind else {
            throw ProtoJSONError(path: path, at: json.location, "expected an object for \(layout.fullName), found \(json.typeName)")
        }
        var chosen: [(position: Int, member: JSONNode.Member)] = []
        chosen.reserveCapacity(members.count)
        var given = [String?](repeating: nil, count: layout.fields.count)
        var oneofs = [String?](repeating: nil, count: layout.oneofNames.count)
        for member in members {
            if member.key == skipping { continue }
            let memberPath = path + "." + member.key
            guard let position = layout.fieldByKey[member.key] else {
                throw ProtoJSONError(path: memberPath, at: member.keyLocation, "\(layout.fullName) has no field \"\(member.key)\"")
            }
            if let first = given[position] {
                throw ProtoJSONError(path: memberPath, at: member.keyLocation, "field \(layout.fields[position].field.name) is given twice (as \"\(first)\" and \"\(member.key)\")")
            }
            given[position] = member.key
            let field = layout.fields[position]
            if case .null = member.value.kind, !Self.takesNull(field) { continue }
            if let oneof = field.field.oneofIndex, oneof < oneofs.count {
                if let other = oneofs[oneof] {
                    throw ProtoJSONError(path: memberPath, at: member.keyLocation, "oneof \(layout.oneofNames[oneof]) is given twice (\"\(other)\" and \"\(member.key)\")")
                }
                oneofs[oneof] = member.key
            }
            chosen.append((position, member))
        }
        chosen.sort { $0.position < $1.position }
        for (position, member) in chosen {
            try writeField(layout.fields[position], member.value, path: path + "." + member.key, depth: depth, into: &writer)
        }
    }

    /// Whether `null` is a value of `field` rather than its absence (`Value` and `NullValue`, singular).
    static func takesNull(_ field: ProtoMessageLayout.Field) -> Bool {
        guard !field.isRepeated else { return false }
        switch field.kind {
        case .nullValue, .wellKnown(.value): return true
        default: return false
        }
    }

    /// Writes one field given as `json`: a map's entries, a repeated field's values (packed or
    /// not), or a singular value (not at all when it has no presence and is its type's zero).
    private func writeField(_ field: ProtoMessageLayout.Field, _ json: JSONNode, path: String, depth: Int, into writer: inout ProtoWireWriter) throws(ProtoJSONError) {
        let number = field.field.number
        if case .map(let entry) = field.kind {
            guard case .object(let members) = json.kind else { throw ProtoJSONError(path: path, at: json.location, "expected an object for map field \(field.field.name), found \(json.typeName)") }
            let entryLayout = layouts[entry]
            guard let keyPosition = entryLayout.index(ofNumber: 1), let valuePosition = entryLayout.index(ofNumber: 2) else {
                throw ProtoJSONError(path: path, at: json.location, "\(entryLayout.fullName) is not a map entry")
            }
            let keyField = entryLayout.fields[keyPosition]
            let valueField = entryLayout.fields[valuePosition]
            for member in members {
                let memberPath = path + "[\"" + member.key + "\"]"
                var entryWriter = ProtoWireWriter()
                let key: JSONNode
                if case .scalar(.bool) = keyField.kind {
                    guard member.key == "true" || member.key == "false" else {
                        throw ProtoJSONError(path: memberPath, at: member.keyLocation, "map key \"\(member.key)\" is not true or false")
                    }
                    key = JSONNode(kind: .bool(member.key == "true"), location: member.keyLocation)
                } else {
                    key = JSONNode(kind: .string(member.key), location: member.keyLocation)
                }
                try writeSingular(keyField, key, path: memberPath, depth: depth, always: true, into: &entryWriter)
                if case .null = member.value.kind, !Self.takesNull(valueField) {
                    throw ProtoJSONError(path: memberPath, at: member.value.location, "a map's value may not be null")
                }
                try writeSingular(valueField, member.value, path: memberPath, depth: depth, always: true, into: &entryWriter)
                writer.tag(number, .lengthDelimited)
                writer.lengthDelimited(entryWriter.bytes)
            }
            return
        }
        guard field.isRepeated else {
            try writeSingular(field, json, path: path, depth: depth, always: field.hasPresence, into: &writer)
            return
        }
        guard case .array(let items) = json.kind else {
            throw ProtoJSONError(path: path, at: json.location, "expected an array for repeated field \(field.field.name), found \(json.typeName)")
        }
        let acceptsNull: Bool
        if case .wellKnown(.value) = field.kind { acceptsNull = true } else { acceptsNull = false }
        if field.isPacked {
            var packed = ProtoWireWriter()
            for (offset, item) in items.enumerated() {
                let itemPath = path + "[\(offset)]"
                if case .null = item.kind { throw ProtoJSONError(path: itemPath, at: item.location, "a repeated field's value may not be null") }
                try wireValue(field, item, path: itemPath).write(into: &packed)
            }
            guard !packed.bytes.isEmpty else { return }
            writer.tag(number, .lengthDelimited)
            writer.lengthDelimited(packed.bytes)
            return
        }
        for (offset, item) in items.enumerated() {
            let itemPath = path + "[\(offset)]"
            if case .null = item.kind, !acceptsNull { throw ProtoJSONError(path: itemPath, at: item.location, "a repeated field's value may not be null") }
            try writeSingular(field, item, path: itemPath, depth: depth, always: true, into: &writer)
        }
    }

    /// Writes one value of `field` with its tag (`always`, or only when it is not its type's zero).
    private func writeSingular(_ field: ProtoMessageLayout.Field, _ json: JSONNode, path: String, depth: Int, always: Bool,
                               into writer: inout ProtoWireWriter) throws(ProtoJSONError) {
        let number = field.field.number
        switch field.kind {
        case .message, .wellKnown:
            var inner = ProtoWireWriter()
            try writeMessage(field.kind, json, path: path, depth: depth + 1, into: &inner)
            writer.tag(number, .lengthDelimited)
            writer.lengthDelimited(inner.bytes)
        case .group:
            writer.tag(number, .startGroup)
            try writeMessage(field.kind, json, path: path, depth: depth + 1, into: &writer)
            writer.tag(number, .endGroup)
        case .unresolved(let name):
            throw ProtoJSONError(path: path, at: json.location, "type \(name) is not in the schema")
        case .map:
            throw ProtoJSONError(path: path, at: json.location, "a map in a map")
        case .scalar, .enumeration, .nullValue:
            let value = try wireValue(field, json, path: path)
            guard always || !value.isZero else { return }
            writer.tag(number, field.wireType)
            value.write(into: &writer)
        }
    }

    /// One scalar, enum or NullValue value of `field` from `json`.
    func wireValue(_ field: ProtoMessageLayout.Field, _ json: JSONNode, path: String) throws(ProtoJSONError) -> WireValue {
        switch field.kind {
        case .enumeration(let index):
            let layout = enums[index]
            var number: Int32
            switch json.kind {
            case .string(let name):
                if let known = layout.numberByName[name] {
                    number = known
                } else if let numeric = Int32(name) {
                    number = numeric
                } else {
                    throw ProtoJSONError(path: path, at: json.location, "\"\(name)\" is not a value of enum \(layout.fullName)")
                }
            case .number:
                let (negative, magnitude) = try Self.integer(json, path: path, type: "enum")
                guard let value = Self.signed(negative, magnitude, min: Int64(Int32.min), max: Int64(Int32.max)) else {
                    throw ProtoJSONError(path: path, at: json.location, "\(Self.text(of: json)) is out of range for enum \(layout.fullName)")
                }
                number = Int32(value)
            default:
                throw ProtoJSONError(path: path, at: json.location, "expected an enum name or number for \(layout.fullName), found \(json.typeName)")
            }
            if layout.isClosed, layout.nameByNumber[number] == nil {
                throw ProtoJSONError(path: path, at: json.location, "\(number) is not a value of closed enum \(layout.fullName)")
            }
            return .varint(UInt64(bitPattern: Int64(number)))
        case .nullValue:
            switch json.kind {
            case .null: return .varint(0)
            case .string("NULL_VALUE"): return .varint(0)
            case .number where json.numberText == "0": return .varint(0)
            default: throw ProtoJSONError(path: path, at: json.location, "expected null for google.protobuf.NullValue, found \(json.typeName)")
            }
        case .scalar(let type):
            return try Self.wireValue(type, json, path: path)
        default:
            throw ProtoJSONError(path: path, at: json.location, "not a scalar")
        }
    }

    /// One value of scalar `type` from `json`.
    static func wireValue(_ type: ProtoFieldType, _ json: JSONNode, path: String) throws(ProtoJSONError) -> WireValue {
        func checked(_ min: Int64, _ max: UInt64) throws(ProtoJSONError) -> (Bool, UInt64) {
            let (negative, magnitude) = try integer(json, path: path, type: type.name)
            let fits = negative ? (magnitude == 0 || (min < 0 && magnitude <= UInt64(-(min + 1)) + 1)) : magnitude <= max
            guard fits else { throw ProtoJSONError(path: path, at: json.location, "\(text(of: json)) is out of range for \(type.name)") }
            return (negative, magnitude)
        }
        func signedValue(_ negative: Bool, _ magnitude: UInt64) -> Int64 {
            negative ? Int64(bitPattern: 0 &- magnitude) : Int64(bitPattern: magnitude)
        }
        switch type {
        case .int32, .int64:
            let (negative, magnitude) = try type == .int32 ? checked(Int64(Int32.min), UInt64(Int32.max)) : checked(Int64.min, UInt64(Int64.max))
            return .varint(UInt64(bitPattern: signedValue(negative, magnitude)))
        case .uint32, .uint64:
            let (_, magnitude) = try type == .uint32 ? checked(0, UInt64(UInt32.max)) : checked(0, UInt64.max)
            return .varint(magnitude)
        case .sint32, .sint64:
            let (negative, magnitude) = try type == .sint32 ? checked(Int64(Int32.min), UInt64(Int32.max)) : checked(Int64.min, UInt64(Int64.max))
            return .varint(ProtoWireWriter.zigzag(signedValue(negative, magnitude)))
        case .fixed32:
            return .fixed32(UInt32(try checked(0, UInt64(UInt32.max)).1))
        case .sfixed32:
            let (negative, magnitude) = try checked(Int64(Int32.min), UInt64(Int32.max))
            return .fixed32(UInt32(bitPattern: Int32(signedValue(negative, magnitude))))
        case .fixed64:
            return .fixed64(try checked(0, UInt64.max).1)
        case .sfixed64:
            let (negative, magnitude) = try checked(Int64.min, UInt64(Int64.max))
            return .fixed64(UInt64(bitPattern: signedValue(negative, magnitude)))
        case .bool:
            guard case .bool(let flag) = json.kind else { throw ProtoJSONError(path: path, at: json.location, "expected true or false, found \(json.typeName)") }
            return .varint(flag ? 1 : 0)
        case .float:
            let value = try floating(json, path: path, type: type)
            return .fixed32(Float(value).bitPattern)
        case .double:
            return .fixed64(try floating(json, path: path, type: type).bitPattern)
        case .string:
            guard case .string(let text) = json.kind else { throw ProtoJSONError(path: path, at: json.location, "expected a string, found \(json.typeName)") }
            return .bytes(Array(text.utf8))
        case .bytes:
            guard case .string(let text) = json.kind else { throw ProtoJSONError(path: path, at: json.location, "expected base64 in a string, found \(json.typeName)") }
            guard let bytes = Base64.decode(text) else { throw ProtoJSONError(path: path, at: json.location, "\"\(text)\" is not base64") }
            return .bytes(bytes)
        case .message, .group, .enum:
            throw ProtoJSONError(path: path, at: json.location, "not a scalar")
        }
    }

    /// The value as written, for an error message: a number's text, a string in quotes.
    static func text(of json: JSONNode) -> String {
        switch json.kind {
        case .string(let text): "\"\(text)\""
        case .number(let value): json.numberText ?? String(value)
        default: json.typeName
        }
    }

    /// The sign and magnitude of an integer given as a JSON number (`12`, `1e2`, `-3.0`) or a
    /// string of digits (`"-12"`), exactly for any 64-bit value.
    static func integer(_ json: JSONNode, path: String, type: String) throws(ProtoJSONError) -> (negative: Bool, magnitude: UInt64) {
        let text: String
        switch json.kind {
        case .string(let string): text = string
        case .number(let value):
            text = json.numberText ?? String(value)
            if let exact = digits(text) {
                guard let magnitude = exact.magnitude else { throw ProtoJSONError(path: path, at: json.location, "\(text) is out of range for \(type)") }
                return (exact.negative, magnitude)
            }
            guard value.rounded(.towardZero) == value else { throw ProtoJSONError(path: path, at: json.location, "\(text) is not an integer (\(type))") }
            guard value.magnitude < 18_446_744_073_709_551_616.0 else { throw ProtoJSONError(path: path, at: json.location, "\(text) is out of range for \(type)") }
            return (value < 0, UInt64(value.magnitude))
        default:
            throw ProtoJSONError(path: path, at: json.location, "expected an integer for \(type), found \(json.typeName)")
        }
        guard let exact = digits(text) else { throw ProtoJSONError(path: path, at: json.location, "\"\(text)\" is not an integer (\(type))") }
        guard let magnitude = exact.magnitude else { throw ProtoJSONError(path: path, at: json.location, "\"\(text)\" is out of range for \(type)") }
        return (exact.negative, magnitude)
    }

    /// `-?[0-9]+` as a sign and a magnitude (`nil` when past 64 bits), or `nil` when it is not that.
    private static func digits(_ text: String) -> (negative: Bool, magnitude: UInt64?)? {
        var bytes = text.utf8[...]
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }
        guard !bytes.isEmpty else { return nil }
        var magnitude: UInt64? = 0
        for byte in bytes {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            guard let current = magnitude else { continue }
            let (times, overflow) = current.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(UInt64(byte - 0x30))
            magnitude = overflow || carry ? nil : sum
        }
        return (negative, magnitude)
    }

    /// A signed value within `min`...`max`, or `nil`.
    static func signed(_ negative: Bool, _ magnitude: UInt64, min: Int64, max: Int64) -> Int64? {
        if negative {
            guard magnitude <= UInt64(-(min + 1)) + 1 else { return nil }
            return Int64(bitPattern: 0 &- magnitude)
        }
        guard magnitude <= UInt64(max) else { return nil }
        return Int64(magnitude)
    }

    /// A float or double from a JSON number or a string (`"1.5"`, `"NaN"`, `"Infinity"`,
    /// `"-Infinity"`); a float beyond float's range is refused.
    static func floating(_ json: JSONNode, path: String, type: ProtoFieldType) throws(ProtoJSONError) -> Double {
        let value: Double
        switch json.kind {
        case .number(let number):
            // `-0` is the integer zero (as Python reads it); `-0.0` is negative zero.
            value = number == 0 && !(json.numberText ?? "").contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) ? 0 : number
        case .string("NaN"): return .nan
        case .string("Infinity"): return .infinity
        case .string("-Infinity"): return -.infinity
        case .string(let text):
            let first = text.utf8.first ?? 0
            guard first == UInt8(ascii: "-") || (first >= 0x30 && first <= 0x39) || first == UInt8(ascii: "."),
                  let number = Double(text), number.isFinite else {
                throw ProtoJSONError(path: path, at: json.location, "\"\(text)\" is not a number (\(type.name))")
            }
            value = number
        default:
            throw ProtoJSONError(path: path, at: json.location, "expected a number for \(type.name), found \(json.typeName)")
        }
        if type == .float {
            // Out of range when it rounds to an infinite float: float's largest as JSON writes it
            // (3.4028235e+38, a little past it as a double) reads back.
            guard Float(value).isFinite else {
                throw ProtoJSONError(path: path, at: json.location, "\(text(of: json)) is out of range for float")
            }
            // A float's text read as a float, not rounded twice through a double.
            let written: String? = if case .string(let string) = json.kind { string } else { json.numberText }
            if value != 0, let written, let float = Float(written), float.isFinite { return Double(float) }
        }
        return value
    }
}
