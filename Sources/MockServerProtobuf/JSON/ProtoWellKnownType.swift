/// The well-known types (`google/protobuf/*.proto`) whose JSON form is not an object of their
/// fields, by full name. The codec knows their fields' numbers itself, so they need not be in the
/// schema for a field of their type to be read and written.
package enum ProtoWellKnownType: Sendable, Hashable {
    /// `Timestamp`: an RFC 3339 string in UTC (`"1972-01-01T10:00:20.021Z"`).
    case timestamp
    /// `Duration`: seconds with a fraction and an `s` (`"1.5s"`).
    case duration
    /// `Any`: the packed message's JSON with `"@type"`, or `{"@type", "value"}` for a well-known payload.
    case any
    /// `Struct`: any JSON object.
    case structValue
    /// `Value`: any JSON value.
    case value
    /// `ListValue`: any JSON array.
    case listValue
    /// `FieldMask`: the paths in lowerCamelCase, joined by commas (`"a.b,cD"`).
    case fieldMask
    /// `Empty`: `{}`.
    case empty
    /// A wrapper (`Int64Value`…): its `value` field's plain JSON, of this scalar type.
    case wrapper(ProtoFieldType)

    /// The well-known type of the message named `fullName` (without a leading dot), if it is one.
    package init?(fullName: String) {
        switch fullName {
        case "google.protobuf.Timestamp": self = .timestamp
        case "google.protobuf.Duration": self = .duration
        case "google.protobuf.Any": self = .any
        case "google.protobuf.Struct": self = .structValue
        case "google.protobuf.Value": self = .value
        case "google.protobuf.ListValue": self = .listValue
        case "google.protobuf.FieldMask": self = .fieldMask
        case "google.protobuf.Empty": self = .empty
        case "google.protobuf.DoubleValue": self = .wrapper(.double)
        case "google.protobuf.FloatValue": self = .wrapper(.float)
        case "google.protobuf.Int64Value": self = .wrapper(.int64)
        case "google.protobuf.UInt64Value": self = .wrapper(.uint64)
        case "google.protobuf.Int32Value": self = .wrapper(.int32)
        case "google.protobuf.UInt32Value": self = .wrapper(.uint32)
        case "google.protobuf.BoolValue": self = .wrapper(.bool)
        case "google.protobuf.StringValue": self = .wrapper(.string)
        case "google.protobuf.BytesValue": self = .wrapper(.bytes)
        default: return nil
        }
    }

    /// Whether, packed in an `Any`, its JSON goes in a `"value"` member beside `"@type"` (every one
    /// but `Empty`, whose JSON is an object of no fields).
    package var isValueInAny: Bool { self != .empty }

    /// The full name of `google.protobuf.NullValue`, the enum whose one value is JSON's `null`.
    package static let nullValueEnum = "google.protobuf.NullValue"
}
