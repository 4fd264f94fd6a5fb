/// A JSON document as a mock-data file name needs it: numbers keep the digits they were written
/// with, so that integers of any size name a file exactly.
package indirect enum JSONValue: Sendable, Hashable {
    /// An object, members in the order written (a repeated key keeps its last value when bencoded).
    case object([(key: String, value: JSONValue)])
    /// An array.
    case array([JSONValue])
    /// A string.
    case string(String)
    /// A number, as written (`-12`, `1.5e3`).
    case number(String)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.object(let left), .object(let right)):
            left.count == right.count && zip(left, right).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.array(let left), .array(let right)): left == right
        case (.string(let left), .string(let right)): left == right
        case (.number(let left), .number(let right)): left == right
        case (.bool(let left), .bool(let right)): left == right
        case (.null, .null): true
        default: false
        }
    }

    package func hash(into hasher: inout Hasher) {
        switch self {
        case .object(let members):
            hasher.combine(0)
            for member in members {
                hasher.combine(member.key)
                hasher.combine(member.value)
            }
        case .array(let elements): hasher.combine(1); hasher.combine(elements)
        case .string(let text): hasher.combine(2); hasher.combine(text)
        case .number(let digits): hasher.combine(3); hasher.combine(digits)
        case .bool(let value): hasher.combine(4); hasher.combine(value)
        case .null: hasher.combine(5)
        }
    }
}
