/// A `.proto` file as parsed, before its type names are resolved: the file with each message or
/// enum type still named as written, and where each such name, import and declaration is, for
/// ``ProtoResolver`` to resolve and check against the other files.
package struct ProtoParsedFile: Sendable {
    /// A place in the file (1-based).
    package struct Location: Sendable, Hashable {
        package var line: Int
        package var column: Int
    }

    /// One `import` statement.
    package struct Import: Sendable, Hashable {
        /// The imported file's name as written (`google/protobuf/timestamp.proto`).
        package var name: String
        package var isPublic: Bool
        package var isWeak: Bool
        package var location: Location
    }

    /// What a type name written in the file is the type of.
    package enum Target: Sendable, Hashable {
        /// The field at `field` of the message that `message` reaches (indexes into the file's
        /// messages, then each one's nested messages).
        case field(message: [Int], field: Int)
        /// The request type of a service's method.
        case input(service: Int, method: Int)
        /// The response type of a service's method.
        case output(service: Int, method: Int)
    }

    /// A type name as written (`Point`, `.pkg.Point`, `Outer.Inner`), to be resolved from `scope`.
    package struct Reference: Sendable, Hashable {
        package var name: String
        /// The full name of the scope it was written in: the enclosing message, or the package.
        package var scope: String
        package var location: Location
        package var target: Target
        /// A field's `[default = …]` when its type is named: an enum value's name, checked once resolved.
        package var defaultName: String?
        /// Where that default is written.
        package var defaultLocation: Location?
    }

    /// What a declared full name is, for the symbol table.
    package enum Kind: Sendable, Hashable {
        case message, enumType, enumValue, service

        /// Whether a type name may name it.
        package var isType: Bool { self == .message || self == .enumType }
    }

    /// A message, enum, enum value or service the file declares, by full name.
    package struct Declaration: Sendable, Hashable {
        package var fullName: String
        package var kind: Kind
        package var location: Location
    }

    /// The file, with named field and method types as written (`.message("Point")`, resolved later).
    package var file: ProtoFile
    package var imports: [Import]
    package var references: [Reference]
    package var declarations: [Declaration]
}
