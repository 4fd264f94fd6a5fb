/// JSON values made in code rather than read, for answers written with ``JSONText``: each made
/// value's location is line 0, column 0 (no text was read).
extension JSONNode {
    /// Where a value made in code is: line 0, column 0.
    package static let madeLocation = JSONNode.Location(line: 0, column: 0)

    /// A string.
    package static func string(_ text: String) -> JSONNode { JSONNode(kind: .string(text), location: madeLocation) }

    /// An integer, written as its digits.
    package static func number(_ value: Int) -> JSONNode {
        JSONNode(kind: .number(Double(value)), location: madeLocation, numberText: String(value))
    }

    /// A number, written in its shortest form without a `.0` for a whole one (`0.25`, `3`, `1e-05`).
    /// A value JSON cannot write (infinite, not a number) is `null`.
    package static func number(_ value: Double) -> JSONNode {
        guard value.isFinite else { return null }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return JSONNode(kind: .number(value), location: madeLocation, numberText: text)
    }

    /// `true` or `false`.
    package static func bool(_ flag: Bool) -> JSONNode { JSONNode(kind: .bool(flag), location: madeLocation) }

    /// `null`.
    package static let null = JSONNode(kind: .null, location: madeLocation)

    /// An array.
    package static func array(_ items: [JSONNode]) -> JSONNode { JSONNode(kind: .array(items), location: madeLocation) }

    /// An object with its keys in sorted order, so that answers made from a dictionary are stable.
    package static func object(_ members: [String: JSONNode]) -> JSONNode {
        JSONNode(kind: .object(members.sorted { $0.key < $1.key }.map { Member(key: $0.key, keyLocation: madeLocation, value: $0.value) }),
                  location: madeLocation)
    }

    /// The members of an object by key (the last of repeated keys); `nil` for any other value.
    package var objectMembers: [String: JSONNode]? {
        guard case .object(let members) = kind else { return nil }
        return Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
    }

    /// The text of a string; `nil` for any other value.
    package var stringValue: String? {
        if case .string(let text) = kind { text } else { nil }
    }
}
