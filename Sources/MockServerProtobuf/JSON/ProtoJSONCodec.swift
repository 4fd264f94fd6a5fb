import MockServerCore

/// Converts messages of a ``ProtoSchema`` between the wire format and the proto3 JSON mapping
/// (https://protobuf.dev/programming-guides/json/), matches them against JSON patterns and looks up
/// values in them for templates.
///
/// Built once per schema (each message's fields indexed by number and by name, each field's type
/// resolved to an index), then used from any connection: a call's decoding reads arrays, not
/// dictionaries keyed by type name. Pure code, no Foundation. Nesting is bounded both ways at
/// ``maximumDepth`` messages, as protobuf bounds it.
package struct ProtoJSONCodec: Sendable {
    /// How deep messages may nest, in bytes and in JSON (protobuf's default recursion limit).
    package static let maximumDepth = 100

    /// Every message of the schema (map entries too).
    package let layouts: [ProtoMessageLayout]
    /// Every enum of the schema (and `google.protobuf.NullValue`).
    package let enums: [ProtoEnumLayout]
    /// The index in ``layouts`` of each message by full name without a leading dot.
    package let layoutIndex: [String: Int]

    /// The codec of `schema`'s messages.
    package init(schema: ProtoSchema) {
        var enumList = schema.enums.values.sorted { $0.fullName < $1.fullName }
        if !enumList.contains(where: { $0.fullName == ProtoWellKnownType.nullValueEnum }) {
            enumList.append(ProtoEnum(name: "NullValue", fullName: ProtoWellKnownType.nullValueEnum, values: [.init(name: "NULL_VALUE", number: 0)]))
        }
        var enumIndex: [String: Int] = [:]
        for (index, value) in enumList.enumerated() { enumIndex[value.fullName] = index }
        let messageList = schema.messages.values.sorted { $0.fullName < $1.fullName }
        var messageIndex: [String: Int] = [:]
        for (index, message) in messageList.enumerated() { messageIndex[message.fullName] = index }
        layouts = messageList.map { message in
            ProtoMessageLayout(message) { field in
                let name = field.type.name.hasPrefix(".") ? String(field.type.name.dropFirst()) : field.type.name
                switch field.type {
                case .message:
                    if let known = ProtoWellKnownType(fullName: name) { return .wellKnown(known) }
                    guard let index = messageIndex[name] else { return .unresolved(name) }
                    return field.label == .repeated && messageList[index].isMapEntry ? .map(index) : .message(index)
                case .group:
                    return messageIndex[name].map { .group($0) } ?? .unresolved(name)
                case .enum:
                    if name == ProtoWellKnownType.nullValueEnum { return .nullValue }
                    return enumIndex[name].map { .enumeration($0) } ?? .unresolved(name)
                default:
                    return .scalar(field.type)
                }
            }
        }
        enums = enumList.map(ProtoEnumLayout.init)
        layoutIndex = messageIndex
    }

    /// What a message type named `type` (with or without a leading dot) is to the codec: a layout,
    /// or a well-known type known without one; `nil` when neither.
    package func kind(ofType type: String) -> ProtoMessageLayout.Kind? {
        let name = type.hasPrefix(".") ? String(type.dropFirst()) : type
        // Only google.protobuf's names are compared with the well-known types' (a call's type is
        // looked up once per message: one dictionary lookup for the usual user type).
        if name.hasPrefix("google.protobuf."), let known = ProtoWellKnownType(fullName: name) { return .wellKnown(known) }
        return layoutIndex[name].map { .message($0) }
    }

    /// The full name of the message a type URL names (`type.googleapis.com/pkg.Name`: what
    /// follows the last `/`).
    package static func typeName(fromURL url: String) -> String {
        guard let slash = url.lastIndex(of: "/") else { return url }
        return String(url[url.index(after: slash)...])
    }
}
