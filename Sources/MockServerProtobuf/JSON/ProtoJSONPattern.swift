import MockServerCore

/// A request pattern (`"request": {"grpc": {"json": {…}}}`) read once by a schema, and matched
/// against each message of a call.
///
/// The rules (issue 53's contract, and what it leaves open):
/// - the fields given must match, the others are ignored; a field may be named by its JSON name or
///   its proto name, and its value written in any form the mapping accepts (`"5"` for 5, an enum's
///   number for its name): the pattern is kept in the mapping's canonical form, so both sides compare
///   as the decoder writes them;
/// - a field at its default value (`0`, `""`, `false`, the enum's first value, `[]`, `{}`, and a
///   well-known type's empty value such as `"0s"`) matches its absence, and `null` matches an absent
///   field or one at its default;
/// - a message matches an object pattern recursively, and so does a map (each key given must be
///   there and match; other keys are ignored);
/// - a repeated field matches an array pattern element by element, and only at the same length: a
///   shorter pattern does not match a prefix (`[1]` does not match `[1, 2]`);
/// - `Struct`, `Value` and `Any` values match as JSON: objects by the keys given, arrays whole;
///   numbers compare by value.
package struct ProtoJSONPattern: Sendable {
    /// One level of a pattern.
    indirect enum Node: Sendable {
        /// A message's fields given: each with its JSON name (how the decoded message names it).
        case message([(jsonName: String, node: Node)])
        /// A repeated field's elements, all of them.
        case array([Node])
        /// A map's entries given, by key as JSON writes it.
        case map([(key: String, node: Node)])
        /// A scalar or enum in canonical JSON, and whether it is its type's default.
        case value(JSONNode, isDefault: Bool)
        /// A well-known type's canonical JSON, and the type's default JSON (what an absent field is).
        case json(JSONNode, absent: JSONNode)
        /// `null`: the field is absent or at its default.
        case absent
    }

    /// The message type it matches, by full name.
    package let type: String
    let root: Node

    /// The reason `message` (the decoded JSON of a message of ``type``, with or without its defaults)
    /// does not match, or `nil` when it matches.
    package func mismatch(in message: JSONNode) -> ProtoJSONMismatch? {
        Self.mismatch(root, message).map { ProtoJSONMismatch(path: "$" + $0.path, expected: $0.expected, found: $0.found) }
    }

    /// Whether `message` (decoded JSON) matches.
    package func matches(_ message: JSONNode) -> Bool { mismatch(in: message) == nil }

    /// A mismatch below the node compared, its path relative to it (built only on the way out).
    typealias Difference = (path: String, expected: String, found: String)

    static func mismatch(_ node: Node, _ found: JSONNode?) -> Difference? {
        switch node {
        case .absent:
            return nil
        case .value(let expected, let isDefault):
            guard let found else { return isDefault ? nil : ("", show(expected), "absent") }
            return equal(expected, found) ? nil : ("", show(expected), show(found))
        case .json(let expected, let absent):
            guard let found else { return general(expected, absent) == nil ? nil : ("", show(expected), "absent") }
            return general(expected, found)
        case .message(let fields):
            var members: [JSONNode.Member] = []
            if let found {
                guard case .object(let list) = found.kind else { return ("", "an object", show(found)) }
                members = list
            }
            for (name, field) in fields {
                let value = members.first { $0.key == name }?.value
                if let difference = mismatch(field, value) { return ("." + name + difference.path, difference.expected, difference.found) }
            }
            return nil
        case .array(let items):
            guard let found else { return items.isEmpty ? nil : ("", "\(items.count) elements", "absent") }
            guard case .array(let elements) = found.kind else { return ("", "an array", show(found)) }
            guard elements.count == items.count else { return ("", "\(items.count) elements", "\(elements.count) elements") }
            for (index, item) in items.enumerated() {
                if let difference = mismatch(item, elements[index]) { return ("[\(index)]" + difference.path, difference.expected, difference.found) }
            }
            return nil
        case .map(let entries):
            guard let found else { return entries.isEmpty ? nil : ("", "\(entries.count) entries", "absent") }
            guard case .object(let members) = found.kind else { return ("", "an object", show(found)) }
            for (key, entry) in entries {
                let path = "[" + key.escaped(.json) + "]"
                guard let value = members.first(where: { $0.key == key })?.value else { return (path, "an entry", "absent") }
                if let difference = mismatch(entry, value) { return (path + difference.path, difference.expected, difference.found) }
            }
            return nil
        }
    }

    /// JSON against JSON: objects by the keys given, arrays whole, scalars equal.
    static func general(_ expected: JSONNode, _ found: JSONNode) -> Difference? {
        switch (expected.kind, found.kind) {
        case (.object(let wanted), .object(let members)):
            for member in wanted {
                let path = "." + member.key
                guard let value = members.first(where: { $0.key == member.key })?.value else { return (path, show(member.value), "absent") }
                if let difference = general(member.value, value) { return (path + difference.path, difference.expected, difference.found) }
            }
            return nil
        case (.array(let wanted), .array(let items)):
            guard wanted.count == items.count else { return ("", "\(wanted.count) elements", "\(items.count) elements") }
            for (index, item) in wanted.enumerated() {
                if let difference = general(item, items[index]) { return ("[\(index)]" + difference.path, difference.expected, difference.found) }
            }
            return nil
        default:
            return equal(expected, found) ? nil : ("", show(expected), show(found))
        }
    }

    /// Whether two scalar JSON values are the same: numbers by value (their texts first: the
    /// decoder writes each value one way), strings, booleans, null.
    static func equal(_ lhs: JSONNode, _ rhs: JSONNode) -> Bool {
        switch (lhs.kind, rhs.kind) {
        case (.number(let a), .number(let b)): lhs.numberText == rhs.numberText || a == b
        case (.string(let a), .string(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null): true
        default: false
        }
    }

    /// A value in compact JSON, for a mismatch's message.
    static func show(_ value: JSONNode) -> String { JSONText.write(value, layout: .compact) }
}
