import MockServerCore

/// Every file loaded, and each message, enum and service by full name: what the wire decoder, the
/// JSON mapping and reflection look types up in. Built once, when the files are loaded; read from
/// every connection.
package struct ProtoSchema: Sendable {
    /// The files, in the order loaded (each one's imports before it).
    package private(set) var files: [ProtoFile]
    /// Each message by its full name without a leading dot.
    package private(set) var messages: [String: ProtoMessage]
    /// Each enum by its full name without a leading dot.
    package private(set) var enums: [String: ProtoEnum]
    /// Each service by its full name.
    package private(set) var services: [String: ProtoService]
    /// The file that declares each message, enum and service, by full name.
    package private(set) var fileOfSymbol: [String: String]

    /// The schema of `files` (each one's imports before it).
    package init(files: [ProtoFile]) {
        self.files = []
        messages = [:]
        enums = [:]
        services = [:]
        fileOfSymbol = [:]
        for file in files { add(file) }
    }

    /// Adds `file` and indexes its types (a file already there is skipped: a file given and also
    /// imported loads once).
    package mutating func add(_ file: ProtoFile) {
        guard !files.contains(where: { $0.name == file.name }) else { return }
        files.append(file)
        for message in file.messages { index(message, in: file.name) }
        for value in file.enums {
            enums[value.fullName] = value
            fileOfSymbol[value.fullName] = file.name
        }
        for service in file.services {
            services[service.fullName] = service
            fileOfSymbol[service.fullName] = file.name
        }
    }

    private mutating func index(_ message: ProtoMessage, in file: String) {
        messages[message.fullName] = message
        fileOfSymbol[message.fullName] = file
        for nested in message.nestedMessages { index(nested, in: file) }
        for value in message.nestedEnums {
            enums[value.fullName] = value
            fileOfSymbol[value.fullName] = file
        }
    }

    /// The message named `name`, with or without a leading dot.
    package func message(_ name: String) -> ProtoMessage? {
        messages[name.hasPrefix(".") ? String(name.dropFirst()) : name]
    }

    /// The enum named `name`, with or without a leading dot.
    package func enumType(_ name: String) -> ProtoEnum? {
        enums[name.hasPrefix(".") ? String(name.dropFirst()) : name]
    }

    /// The file named `name`.
    package func file(_ name: String) -> ProtoFile? {
        files.first { $0.name == name }
    }

    /// The method a call's path names (`/routeguide.RouteGuide/GetFeature`), with its service.
    package func method(path: String) -> (service: ProtoService, method: ProtoService.Method)? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count == 2, let service = services[String(parts[0])],
              let method = service.methods.first(where: { $0.name == parts[1] }) else { return nil }
        return (service, method)
    }
}
