/// Resolves the type names of parsed files with protobuf's scoping rules and checks what needs the
/// files together: a name declared twice, a type that does not exist or is not imported, an enum
/// default that is not one of the enum's values, a proto2 enum in a proto3 message, an enum as a
/// map's value whose first value is not 0. Pure code.
///
/// A name is looked up from the innermost scope outwards (`pkg.Outer.Inner`, then `pkg.Outer`,
/// `pkg`, the root); a dotted name's first part decides the scope, as in protoc: once `Outer` is
/// found, `Outer.Inner` must be inside it. A leading dot names a type from the root. A file sees
/// its own types, its imports' and what those import publicly.
package struct ProtoResolver {
    /// What a full name is and where it was declared.
    private struct Symbol {
        /// `nil` for a package (or a package's prefix).
        var kind: ProtoParsedFile.Kind?
        var file: String
        var location: ProtoParsedFile.Location
    }

    private var symbols: [String: Symbol] = [:]
    private var enums: [String: ProtoEnum] = [:]

    /// `files` resolved, in the same order; they must be given imports before importers, with every
    /// import among them.
    /// - Throws: ``ProtoError`` at the first name declared twice or type that cannot be resolved.
    package static func resolve(_ files: [ProtoParsedFile]) throws(ProtoError) -> [ProtoFile] {
        try ProtoError.typed {
            var resolver = ProtoResolver()
            for file in files { try resolver.declare(file) }
            let byName = Dictionary(files.map { ($0.file.name, $0) }, uniquingKeysWith: { first, _ in first })
            return try files.map { file in try resolver.resolve(file, visible: Self.visibleFiles(of: file, in: byName)) }
        }
    }

    /// The files whose types `file` may name: itself, its imports, and the public imports of those, transitively.
    private static func visibleFiles(of file: ProtoParsedFile, in files: [String: ProtoParsedFile]) -> Set<String> {
        var visible: Set<String> = [file.file.name]
        var pending = file.imports.map(\.name)
        while let name = pending.popLast() {
            guard visible.insert(name).inserted, let imported = files[name] else { continue }
            pending += imported.imports.filter(\.isPublic).map(\.name)
        }
        return visible
    }

    private mutating func declare(_ parsed: ProtoParsedFile) throws {
        let fileName = parsed.file.name
        var prefix = ""
        for part in parsed.file.package.split(separator: ".") {
            prefix = prefix.isEmpty ? String(part) : prefix + "." + part
            if symbols[prefix] == nil { symbols[prefix] = Symbol(kind: nil, file: fileName, location: .init(line: 0, column: 0)) }
        }
        for declaration in parsed.declarations {
            if let existing = symbols[declaration.fullName] {
                let whereDeclared = existing.file == fileName ? "in this file" : "in \(existing.file)"
                var reason = "\"\(declaration.fullName)\" is already defined \(whereDeclared)"
                if declaration.kind == .enumValue || existing.kind == .enumValue {
                    reason += " (enum values are siblings of their enum, as in C++, so they must be unique in its scope)"
                }
                throw ProtoError(file: fileName, line: declaration.location.line, column: declaration.location.column, reason: reason)
            }
            symbols[declaration.fullName] = Symbol(kind: declaration.kind, file: fileName, location: declaration.location)
        }
        for value in parsed.file.enums { enums[value.fullName] = value }
        func index(_ message: ProtoMessage) {
            for value in message.nestedEnums { enums[value.fullName] = value }
            for nested in message.nestedMessages { index(nested) }
        }
        for message in parsed.file.messages { index(message) }
    }

    /// The full name `name` means in `scope`, and what it is, by protobuf's rules (``ProtoResolver``).
    private func lookUp(_ name: String, in scope: String) -> (String, Symbol)? {
        if name.hasPrefix(".") {
            let fullName = String(name.dropFirst())
            return symbols[fullName].map { (fullName, $0) }
        }
        let first = name.prefix { $0 != "." }
        let isDotted = first.count < name.count
        var scope = Substring(scope)
        while true {
            let candidate = scope.isEmpty ? String(first) : scope + "." + first
            if let symbol = symbols[candidate] {
                if !isDotted {
                    if symbol.kind?.isType == true { return (candidate, symbol) }
                } else if symbol.kind != .enumValue {
                    let fullName = scope.isEmpty ? name : scope + "." + name
                    return symbols[fullName].map { (fullName, $0) }
                }
            }
            guard !scope.isEmpty else { return nil }
            scope = scope.lastIndex(of: ".").map { scope[..<$0] } ?? ""
        }
    }

    private func resolve(_ parsed: ProtoParsedFile, visible: Set<String>) throws -> ProtoFile {
        var file = parsed.file
        // Read once: `fail` and the checks run inside `update`'s closure too, while `file` is being modified.
        let fileName = file.name, syntax = file.syntax
        for reference in parsed.references {
            func fail(_ reason: String, at location: ProtoParsedFile.Location? = nil) -> ProtoError {
                let location = location ?? reference.location
                return ProtoError(file: fileName, line: location.line, column: location.column, reason: reason)
            }
            guard let (fullName, symbol) = lookUp(reference.name, in: reference.scope) else {
                throw fail("unknown type \"\(reference.name)\"")
            }
            guard let kind = symbol.kind, kind.isType else { throw fail("\"\(reference.name)\" is not a type") }
            guard visible.contains(symbol.file) else {
                throw fail("\"\(reference.name)\" is defined in \(symbol.file), which \(fileName) does not import")
            }
            switch reference.target {
            case .input(let service, let method), .output(let service, let method):
                guard kind == .message else { throw fail("\"\(reference.name)\" is not a message type") }
                if case .input = reference.target {
                    file.services[service].methods[method].inputType = "." + fullName
                } else {
                    file.services[service].methods[method].outputType = "." + fullName
                }
            case .field(let path, let index):
                var fieldError: ProtoError?
                Self.update(&file.messages, path: path[...]) { message in
                    var field = message.fields[index]
                    if kind == .message {
                        field.type = .message("." + fullName)
                        field.isPacked = false
                        if reference.defaultName != nil { fieldError = fail("message fields cannot have a default", at: reference.defaultLocation) }
                    } else {
                        field.type = .enum("." + fullName)
                        let enumType = enums[fullName]
                        if let name = reference.defaultName, enumType?.values.contains(where: { $0.name == name }) != true {
                            fieldError = fail("\(name) is not a value of enum \(fullName)", at: reference.defaultLocation)
                        }
                        if message.isMapEntry, index == 1, enumType?.values.first?.number != 0 {
                            fieldError = fail("enum \(fullName) is a map's value type, so its first value must be 0")
                        }
                        if syntax == .proto3, enumType?.isClosed == true {
                            fieldError = fail("enum \(fullName) is a proto2 enum: a proto3 message cannot use it")
                        }
                        field.defaultValue = reference.defaultName
                    }
                    message.fields[index] = field
                }
                if let fieldError { throw fieldError }
            }
        }
        return file
    }

    /// Applies `change` to the message that `path` reaches in `messages`.
    private static func update(_ messages: inout [ProtoMessage], path: ArraySlice<Int>, _ change: (inout ProtoMessage) -> Void) {
        guard let first = path.first else { return }
        if path.count == 1 {
            change(&messages[first])
        } else {
            update(&messages[first].nestedMessages, path: path.dropFirst(), change)
        }
    }
}
