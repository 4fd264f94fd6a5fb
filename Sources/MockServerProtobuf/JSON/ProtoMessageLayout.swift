/// A message type as the JSON codec reads and writes it, built once per schema: its fields in
/// number order, each with its type resolved to an index (no lookup by name per call), and the
/// indexes to find a field by number or by JSON key.
///
/// A class, as is its ``Field``, for speed alone: each message decoded reads its layout and each
/// field's, and a struct copied out of the array retained each of its strings and collections
/// (decoding a two-field message took 1.45 µs with structs; perf showed the copies on top).
package final class ProtoMessageLayout: Sendable {
    /// What a field's values are, resolved.
    package enum Kind: Sendable, Hashable {
        /// A scalar of this type (never `.message`, `.group` or `.enum`).
        case scalar(ProtoFieldType)
        /// An enum: its index in ``ProtoJSONCodec/enums``.
        case enumeration(Int)
        /// A message: its index in ``ProtoJSONCodec/layouts``.
        case message(Int)
        /// A proto2 group: its message's index.
        case group(Int)
        /// A well-known type with a JSON form of its own.
        case wellKnown(ProtoWellKnownType)
        /// `google.protobuf.NullValue`: JSON's `null`, its one value (0).
        case nullValue
        /// A map: the index of its entry message (`key` = 1, `value` = 2).
        case map(Int)
        /// A type the schema does not have (by full name): read as an unknown field, refused in JSON.
        case unresolved(String)
    }

    /// One field, with what the codec needs of it at hand.
    package final class Field: Sendable {
        package let field: ProtoField
        package let kind: Kind
        /// Whether it is repeated (and not a map).
        package let isRepeated: Bool
        /// Whether it tracks presence: a message, `optional`, `required`, a oneof's member. A field
        /// without presence is absent at its default value.
        package let hasPresence: Bool
        /// Whether a repeated scalar or enum is written packed.
        package let isPacked: Bool
        /// The wire type of one unpacked value.
        package let wireType: ProtoWireType

        init(field: ProtoField, kind: Kind, isRepeated: Bool, hasPresence: Bool, isPacked: Bool, wireType: ProtoWireType) {
            self.field = field
            self.kind = kind
            self.isRepeated = isRepeated
            self.hasPresence = hasPresence
            self.isPacked = isPacked
            self.wireType = wireType
        }
    }

    /// Its full name without a leading dot.
    package let fullName: String
    /// Its fields in number order.
    package let fields: [Field]
    /// Whether it is a map's entry.
    package let isMapEntry: Bool
    /// The indexes in ``fields`` of each oneof's members (synthetic ones of proto3 `optional` too).
    package let oneofMembers: [[Int]]
    /// The oneofs' names.
    package let oneofNames: [String]
    /// The index in ``fields`` of each field number below 256, or -1 (the usual case, without hashing).
    private let smallNumbers: [Int16]
    /// The index of each larger field number.
    private let largeNumbers: [Int32: Int]
    /// The index of each field by JSON name and by proto name.
    package let fieldByKey: [String: Int]

    package init(_ message: ProtoMessage, kinds: (ProtoField) -> Kind) {
        fullName = message.fullName
        isMapEntry = message.isMapEntry
        let sorted = message.fields.sorted { $0.number < $1.number }
        fields = sorted.map { field in
            let kind = kinds(field)
            let isMap: Bool
            if case .map = kind { isMap = true } else { isMap = false }
            let repeated = field.label == .repeated && !isMap
            let presence: Bool
            switch kind {
            case .message, .group, .wellKnown, .unresolved: presence = !repeated && !isMap
            default: presence = field.label == .optional || field.label == .required || field.oneofIndex != nil
            }
            return Field(field: field, kind: kind, isRepeated: repeated, hasPresence: presence,
                         isPacked: repeated && field.isPacked && field.type.isPackable, wireType: Self.wireType(of: field.type))
        }
        oneofNames = message.oneofs
        var members = [[Int]](repeating: [], count: message.oneofs.count)
        var small = [Int16](repeating: -1, count: 256)
        var large: [Int32: Int] = [:]
        var keys: [String: Int] = [:]
        for (index, entry) in fields.enumerated() {
            if let oneof = entry.field.oneofIndex, oneof >= 0, oneof < members.count { members[oneof].append(index) }
            if entry.field.number >= 0, entry.field.number < 256 { small[Int(entry.field.number)] = Int16(index) } else { large[entry.field.number] = index }
            keys[entry.field.name] = index
            keys[entry.field.jsonName] = index
        }
        oneofMembers = members
        smallNumbers = small
        largeNumbers = large
        fieldByKey = keys
    }

    /// The index in ``fields`` of the field numbered `number`.
    @inline(__always) package func index(ofNumber number: Int32) -> Int? {
        if number < 256 {
            let index = smallNumbers[Int(number)]
            return index < 0 ? nil : Int(index)
        }
        return largeNumbers[number]
    }

    /// The wire type a value of `type` is written with (a packed repeated field's is length-delimited).
    package static func wireType(of type: ProtoFieldType) -> ProtoWireType {
        switch type {
        case .int32, .int64, .uint32, .uint64, .sint32, .sint64, .bool, .enum: .varint
        case .fixed64, .sfixed64, .double: .fixed64
        case .fixed32, .sfixed32, .float: .fixed32
        case .string, .bytes, .message: .lengthDelimited
        case .group: .startGroup
        }
    }
}
