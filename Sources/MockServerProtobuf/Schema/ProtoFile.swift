/// One `.proto` file, resolved: every type it names is a full name.
package struct ProtoFile: Sendable, Hashable {
    /// `proto2` or `proto3` (and the descriptor's `syntax`; editions are refused).
    package enum Syntax: String, Sendable, Hashable {
        case proto2, proto3
    }

    /// Its name relative to the proto path that holds it (`google/protobuf/timestamp.proto`), as
    /// protoc names it: reflection serves it under this name.
    package var name: String
    /// Its package (`routeguide`), empty when it declares none.
    package var package: String
    package var syntax: Syntax
    /// The files it imports, by name, in order.
    package var dependencies: [String]
    /// The indexes in ``dependencies`` of its `import public` ones.
    package var publicDependencies: [Int]
    /// The indexes in ``dependencies`` of its `import weak` ones (loaded like the others).
    package var weakDependencies: [Int]
    /// Its top-level messages, enums and services.
    package var messages: [ProtoMessage]
    package var enums: [ProtoEnum]
    package var services: [ProtoService]
    /// Its `option`s that a descriptor carries and clients read (`go_package`, `java_package`…), by
    /// name, as written; others are ignored.
    package var options: [String: String]

    package init(name: String, package: String = "", syntax: Syntax = .proto3, dependencies: [String] = [], publicDependencies: [Int] = [],
                 weakDependencies: [Int] = [], messages: [ProtoMessage] = [], enums: [ProtoEnum] = [], services: [ProtoService] = [],
                 options: [String: String] = [:]) {
        self.name = name
        self.package = package
        self.syntax = syntax
        self.dependencies = dependencies
        self.publicDependencies = publicDependencies
        self.weakDependencies = weakDependencies
        self.messages = messages
        self.enums = enums
        self.services = services
        self.options = options
    }
}
