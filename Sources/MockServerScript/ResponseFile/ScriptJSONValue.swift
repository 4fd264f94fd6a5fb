import MockServerCore
/// A parsed JSON value of a response file that remembers where it was written and keeps object keys in order.
public struct ScriptJSONValue: Sendable {
    public enum Kind: Sendable {
        case object([Member])
        case array([ScriptJSONValue])
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
    }

    /// One key of an object, with the key's own location.
    public struct Member: Sendable {
        public let key: String
        public let keyLocation: ScriptSourceLocation
        public let value: ScriptJSONValue
    }

    public let kind: Kind
    public let location: ScriptSourceLocation

    /// The JSON type's name, for error messages.
    public var typeName: String {
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
