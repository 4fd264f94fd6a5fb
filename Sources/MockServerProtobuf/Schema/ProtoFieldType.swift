/// A field's type, as `descriptor.proto`'s `FieldDescriptorProto.Type` names them; a message,
/// group or enum by its resolved full name with a leading dot (`.routeguide.Point`), as a
/// descriptor writes it.
package enum ProtoFieldType: Sendable, Hashable {
    case double, float, int64, uint64, int32, fixed64, fixed32, bool, string, bytes, uint32, sfixed32, sfixed64, sint32, sint64
    /// A message, by its full name (`.pkg.Outer.Inner`).
    case message(String)
    /// A proto2 group, by the full name of its message.
    case group(String)
    /// An enum, by its full name.
    case `enum`(String)

    /// Whether a repeated field of this type may be packed (every scalar and enum: numbers of fixed
    /// or varint width, not strings, bytes or messages).
    package var isPackable: Bool {
        switch self {
        case .string, .bytes, .message, .group: false
        default: true
        }
    }

    /// The type's name as written in a `.proto` file for a scalar (`int32`), or the full name of a
    /// message, group or enum.
    package var name: String {
        switch self {
        case .double: "double"
        case .float: "float"
        case .int64: "int64"
        case .uint64: "uint64"
        case .int32: "int32"
        case .fixed64: "fixed64"
        case .fixed32: "fixed32"
        case .bool: "bool"
        case .string: "string"
        case .bytes: "bytes"
        case .uint32: "uint32"
        case .sfixed32: "sfixed32"
        case .sfixed64: "sfixed64"
        case .sint32: "sint32"
        case .sint64: "sint64"
        case .message(let name), .group(let name), .enum(let name): name
        }
    }
}
