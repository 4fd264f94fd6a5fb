/// A parsed JSON value that remembers where it was written, keeps object keys in order (repeated
/// ones too, when the reader allows them), and keeps a number's text as written.
///
/// ``JSONReader`` makes them: response files and endpoints files read leniently, mock-data files
/// and request bodies strictly.
public struct JSONNode: Sendable {
    /// What the value is.
    public enum Kind: Sendable {
        /// An object's members, in the order written.
        case object([Member])
        /// An array's elements.
        case array([JSONNode])
        /// A string.
        case string(String)
        /// A number's value (its text as written is ``JSONNode/numberText``).
        case number(Double)
        /// `true` or `false`.
        case bool(Bool)
        /// `null`.
        case null
    }

    /// One key of an object, with the key's own location.
    public struct Member: Sendable {
        /// The key.
        public let key: String
        /// Where the key was written.
        public let keyLocation: JSONNode.Location
        /// The key's value.
        public let value: JSONNode

        /// Creates a member.
        public init(key: String, keyLocation: JSONNode.Location, value: JSONNode) {
            self.key = key
            self.keyLocation = keyLocation
            self.value = value
        }
    }

    /// What the value is.
    public let kind: Kind
    /// Where the value starts.
    public let location: JSONNode.Location
    /// For a number, its text as written (`-12`, `1.5e3`): exact where a `Double` is not, as
    /// for integers of any size. `nil` for every other value.
    public let numberText: String?

    /// Creates a value.
    public init(kind: Kind, location: JSONNode.Location, numberText: String? = nil) {
        self.kind = kind
        self.location = location
        self.numberText = numberText
    }

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
