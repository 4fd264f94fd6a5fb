/// A file-level option that a descriptor carries and code generators read (`go_package`,
/// `java_package`, `optimize_for`…): its field number in `google.protobuf.FileOptions` and how its
/// value is written. The reader keeps these; other options are parsed and dropped.
package struct ProtoFileOption: Sendable, Hashable {
    /// How a value is written in `FileOptions`.
    package enum Kind: Sendable, Hashable {
        /// A string (`go_package = "…"`).
        case string
        /// A bool (`java_multiple_files = true`).
        case bool
        /// `optimize_for`'s enum: `SPEED` = 1, `CODE_SIZE` = 2, `LITE_RUNTIME` = 3.
        case optimizeMode
    }

    package var number: Int32
    package var kind: Kind

    /// The options kept, by name.
    package static let known: [String: ProtoFileOption] = [
        "java_package": .init(number: 1, kind: .string),
        "java_outer_classname": .init(number: 8, kind: .string),
        "optimize_for": .init(number: 9, kind: .optimizeMode),
        "java_multiple_files": .init(number: 10, kind: .bool),
        "go_package": .init(number: 11, kind: .string),
        "cc_generic_services": .init(number: 16, kind: .bool),
        "java_generic_services": .init(number: 17, kind: .bool),
        "py_generic_services": .init(number: 18, kind: .bool),
        "java_generate_equals_and_hash": .init(number: 20, kind: .bool),
        "deprecated": .init(number: 23, kind: .bool),
        "java_string_check_utf8": .init(number: 27, kind: .bool),
        "cc_enable_arenas": .init(number: 31, kind: .bool),
        "objc_class_prefix": .init(number: 36, kind: .string),
        "csharp_namespace": .init(number: 37, kind: .string),
        "swift_prefix": .init(number: 39, kind: .string),
        "php_class_prefix": .init(number: 40, kind: .string),
        "php_namespace": .init(number: 41, kind: .string),
        "php_metadata_namespace": .init(number: 44, kind: .string),
        "ruby_package": .init(number: 45, kind: .string),
    ]

    /// `optimize_for`'s values by name.
    package static let optimizeModes: [String: UInt64] = ["SPEED": 1, "CODE_SIZE": 2, "LITE_RUNTIME": 3]
}
