import Foundation

/// Loads `.proto` files as `protoc` does with `-I`: `mockserver --proto FILE` (repeatable) with
/// `--proto-path DIR` (repeatable). Each file is named relative to the proto path that holds it (the
/// first, in the order given), as protoc names it and reflection serves it; its imports are looked
/// for in the proto paths in order, then among ``ProtoBuiltIns``. With no proto path, the current
/// directory is the proto path, as in protoc; a file outside it has its own directory as its path
/// (where protoc refuses it). A file given and also imported loads once. The result has each file's
/// imports before it.
package struct ProtoLoader: Sendable {
    /// The largest file read: a bound on what a schema costs.
    package static let fileSizeLimit = 8 << 20

    /// The proto paths, as given.
    package var protoPaths: [String]
    /// The directory relative paths start from.
    package var workingDirectory: String
    /// A file's bytes by its path, or `nil` when there is no such file (tests give files in memory).
    package var readFile: @Sendable (String) -> [UInt8]?

    package init(protoPaths: [String] = [], workingDirectory: String = FileManager.default.currentDirectoryPath,
                 readFile: @escaping @Sendable (String) -> [UInt8]? = ProtoLoader.readFromDisk) {
        self.protoPaths = protoPaths
        self.workingDirectory = workingDirectory
        self.readFile = readFile
    }

    /// A regular file's bytes from the disk.
    package static let readFromDisk: @Sendable (String) -> [UInt8]? = { path in
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
              let data = FileManager.default.contents(atPath: path) else { return nil }
        return [UInt8](data)
    }

    /// The schema of `files` (paths as given on the command line) and what they import; `adding`:
    /// files loaded by name after them (from the proto paths, else the built-in ones), unless loaded
    /// already: the ones a server always has (google/rpc's, reflection's, health's).
    /// - Throws: ``ProtoError``: a file or import not found, an import cycle, a file that does not
    ///   parse or resolve, a file larger than ``fileSizeLimit``.
    package func load(_ files: [String], adding: [String] = []) throws(ProtoError) -> ProtoSchema {
        try ProtoError.typed { try loadFiles(files, adding: adding) }
    }

    private func loadFiles(_ files: [String], adding: [String]) throws -> ProtoSchema {
        let named = try files.map { file in
            let (name, path) = try nameOf(file)
            return (name, path, file)
        }
        // A file outside the implicit proto path (the working directory) has its own directory as one.
        var roots = self.roots
        for (name, path, _) in named {
            guard protoPaths.isEmpty, let path, !path.hasPrefix(roots[0] + "/") else { continue }
            let directory = String(path.dropLast(name.count + 1))
            if !roots.contains(directory) { roots.append(directory.isEmpty ? "/" : directory) }
        }
        var session = Session(loader: self, roots: roots)
        for (name, path, asWritten) in named {
            if let error = session.load(name, given: path.map { ($0, asWritten) }, from: nil) { throw error }
        }
        for name in adding {
            if let error = session.load(name, given: nil, from: nil) { throw error }
        }
        return ProtoSchema(files: try ProtoResolver.resolve(session.parsed))
    }

    /// The largest descriptor set read (`--descriptor-set`): one with every file its files import.
    package static let descriptorSetSizeLimit = 64 << 20

    /// The schema of a `FileDescriptorSet` file (`mockserver --descriptor-set FILE`), as
    /// `protoc --descriptor_set_out=FILE --include_imports` writes it: its files in its order, which
    /// protoc makes imports before importers.
    /// - Throws: ``ProtoError`` naming `path`: no such file, larger than ``descriptorSetSizeLimit``,
    ///   or not a descriptor set (``ProtoDescriptorReader``).
    package func loadDescriptorSet(_ path: String) throws(ProtoError) -> ProtoSchema {
        guard let bytes = readFile(normalized(path)) else { throw ProtoError(file: path, line: 0, column: 0, reason: "no such file") }
        guard bytes.count <= Self.descriptorSetSizeLimit else {
            throw ProtoError(file: path, line: 0, column: 0, reason: "is larger than \(Self.descriptorSetSizeLimit) bytes")
        }
        return ProtoSchema(files: try ProtoDescriptorReader.files(of: bytes, name: path))
    }

    /// `path` without `.` parts and with `..` applied, absolute from ``workingDirectory``.
    func normalized(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : workingDirectory + "/" + path
        var parts: [Substring] = []
        for part in absolute.split(separator: "/") where part != "." {
            if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The proto paths to search, normalized: those given, or the working directory.
    private var roots: [String] { protoPaths.isEmpty ? [normalized(".")] : protoPaths.map(normalized) }

    /// A given file's name (relative to the proto path that holds it) and the path it is read from
    /// (`nil` when it is to be found in the proto paths by that name).
    private func nameOf(_ file: String) throws -> (String, String?) {
        let path = normalized(file)
        for root in roots {
            let prefix = root == "/" ? "/" : root + "/"
            if path.hasPrefix(prefix) { return (String(path.dropFirst(prefix.count)), path) }
        }
        if protoPaths.isEmpty {
            return (String(path.split(separator: "/").last ?? ""), path)
        }
        // protoc's other reading: a name that is not a file here but is one in a proto path (or built in).
        if !file.hasPrefix("/"), readFile(path) == nil, roots.contains(where: { readFile($0 + "/" + file) != nil }) || ProtoBuiltIns.files[file] != nil {
            return (String(normalized("/" + file).dropFirst()), nil)
        }
        throw ProtoError(file: file, line: 0, column: 0,
                         reason: "is in none of the proto paths (\(protoPaths.joined(separator: ", "))): name a --proto-path that holds it")
    }

    /// One loading: the files parsed so far, in order, and the chain of imports being followed.
    private struct Session {
        let loader: ProtoLoader
        /// The proto paths searched for imports, normalized.
        let roots: [String]
        var parsed: [ProtoParsedFile] = []
        var loaded: Set<String> = []
        var chain: [String] = []

        /// The file `name` in the first proto path that has it.
        func firstFound(_ name: String) -> [UInt8]? {
            for root in roots {
                if let bytes = loader.readFile(root + "/" + name) { return bytes }
            }
            return nil
        }

        /// Loads the file `name` (read from `given`'s path when given) after its imports, unless it is
        /// loaded already. `from` is the import that names it, for errors.
        /// It returns its error, if any, rather than throwing it.
        mutating func load(_ name: String, given: (path: String, asWritten: String)?, from: (file: String, location: ProtoParsedFile.Location)?) -> ProtoError? {
            func fault(_ reason: String) -> ProtoError {
                ProtoError(file: from?.file ?? name, line: from?.location.line ?? 0, column: from?.location.column ?? 0, reason: reason)
            }
            if let cycleStart = chain.firstIndex(of: name) {
                return fault("import cycle: \((chain[cycleStart...] + [name]).joined(separator: " -> "))")
            }
            guard !loaded.contains(name) else { return nil }
            let bytes: [UInt8]
            if let given {
                // A built-in file may be given by its name alone (`--proto google/rpc/status.proto`).
                guard let read = loader.readFile(given.path) ?? ProtoBuiltIns.files[name].map({ Array($0.utf8) }) else {
                    return ProtoError(file: given.asWritten, line: 0, column: 0, reason: "no such file")
                }
                bytes = read
            } else if let read = firstFound(name) {
                bytes = read
            } else if let text = ProtoBuiltIns.files[name] {
                bytes = Array(text.utf8)
            } else {
                return fault("import \"\(name)\" was not found in the proto paths (\(roots.joined(separator: ", "))) nor among the built-in files")
            }
            guard bytes.count <= ProtoLoader.fileSizeLimit else {
                return ProtoError(file: name, line: 0, column: 0, reason: "is larger than \(ProtoLoader.fileSizeLimit) bytes")
            }
            let file: ProtoParsedFile
            do {
                file = try ProtoParser.parse(bytes, file: name)
            } catch {
                return error
            }
            chain.append(name)
            for imported in file.imports {
                if let error = load(imported.name, given: nil, from: (name, imported.location)) { return error }
            }
            chain.removeLast()
            loaded.insert(name)
            parsed.append(file)
            return nil
        }
    }
}
