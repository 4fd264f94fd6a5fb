/// One field of a message, resolved: its type names a message or enum by full name.
package struct ProtoField: Sendable, Hashable {
    /// How many values the field holds and whether its presence is tracked.
    package enum Label: Sendable, Hashable {
        /// proto3's singular field without `optional`: no presence, absent when at its default.
        case implicit
        /// `optional` (proto2, or proto3's explicit presence): present or not.
        case optional
        /// proto2's `required`.
        case required
        /// `repeated` (a map field is a repeated field of its entry message).
        case repeated
    }

    /// The field's name as written (`feature_name`).
    package var name: String
    /// Its JSON name: `json_name` when given, else the name in lowerCamelCase (`featureName`).
    package var jsonName: String
    /// Its number.
    package var number: Int32
    package var label: Label
    package var type: ProtoFieldType
    /// The index of its `oneof` in the message's ``ProtoMessage/oneofs`` (a proto3 `optional` field
    /// sits in a synthetic one, as protoc makes it).
    package var oneofIndex: Int?
    /// Whether it is proto3's `optional` (in a synthetic oneof).
    package var isProto3Optional: Bool
    /// Whether a repeated scalar is written packed: proto3's default, proto2's `[packed = true]`.
    package var isPacked: Bool
    /// proto2's `[default = …]` as a descriptor's `default_value` holds it, the same from a `.proto`
    /// file and from protoc's descriptors: an enum's value by name, a string's text, bytes C-escaped
    /// (octal for what is not printable ASCII), integers in decimal, floats as C's shortest `%g` that
    /// reads back (`inf`, `-inf`, `nan`), `true` or `false`.
    package var defaultValue: String?
    /// Whether `json_name` was written in the file (a descriptor then carries it as given).
    package var hasExplicitJSONName: Bool

    package init(name: String, jsonName: String? = nil, number: Int32, label: Label, type: ProtoFieldType,
                 oneofIndex: Int? = nil, isProto3Optional: Bool = false, isPacked: Bool = false, defaultValue: String? = nil) {
        self.name = name
        self.jsonName = jsonName ?? Self.lowerCamelCase(name)
        self.number = number
        self.label = label
        self.type = type
        self.oneofIndex = oneofIndex
        self.isProto3Optional = isProto3Optional
        self.isPacked = isPacked
        self.defaultValue = defaultValue
        self.hasExplicitJSONName = jsonName != nil
    }

    /// protoc's JSON name of a field: each `_` dropped and the letter after it upper-cased.
    package static func lowerCamelCase(_ name: String) -> String {
        var result = ""
        var upperNext = false
        for character in name {
            if character == "_" {
                upperNext = true
            } else if upperNext {
                result += character.uppercased()
                upperNext = false
            } else {
                result.append(character)
            }
        }
        return result
    }
}
