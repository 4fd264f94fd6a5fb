import MockServerCore
/// A parsed JSON value that remembers where it was written and keeps object keys in order.
struct JSONValue: Sendable {
    enum Kind: Sendable {
        case object([Member])
        case array([JSONValue])
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
    }

    /// One key of an object, with the key's own location.
    struct Member: Sendable {
        let key: String
        let keyLocation: SourceLocation
        let value: JSONValue
    }

    let kind: Kind
    let location: SourceLocation

    /// The JSON type's name, for error messages.
    var typeName: String {
        switch kind {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }
}
