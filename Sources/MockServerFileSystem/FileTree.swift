/// The server's files (a flat map of names to bytes, shared with FTP) seen as a tree of decoded
/// paths: which are files, which are folders, and what each folder holds.
package struct FileTree: Sendable {
    /// File path (no trailing `/`) → the name it is stored under.
    package private(set) var files: [String: String] = [:]
    /// Folder paths, each ending in `/`; `/` is always one.
    package private(set) var folders: Set<String> = ["/"]

    package init(files stored: [String: [UInt8]]) {
        for name in stored.keys {
            let path = FilePaths.path(ofStoredName: name)
            if path.hasSuffix("/") { folders.insert(path) } else { files[path] = name }
            var ancestor = FilePaths.parent(path)
            while !folders.contains(ancestor) {
                folders.insert(ancestor)
                ancestor = FilePaths.parent(ancestor)
            }
        }
    }

    /// What is at `path`.
    package enum Kind: Equatable {
        case file(storedName: String)
        case folder
    }

    /// What is at `path`, or `nil`.
    package func kind(of path: String) -> Kind? {
        if let name = files[FilePaths.file(path)] { return .file(storedName: name) }
        return folders.contains(FilePaths.folder(path)) ? .folder : nil
    }

    /// The paths directly in `folder`, folders ending in `/`, sorted.
    package func children(of folder: String) -> [String] {
        let prefix = FilePaths.folder(folder)
        let isChild = { (path: String) in
            path != prefix && path.hasPrefix(prefix) && !FilePaths.file(String(path.dropFirst(prefix.count))).utf8.contains(UInt8(ascii: "/"))
        }
        return (folders.filter(isChild) + files.keys.filter(isChild)).sorted()
    }

    /// `files` without `path` and everything below it, and the paths removed.
    package func removing(subtreeOf path: String, from files: [String: [UInt8]]) -> (files: [String: [UInt8]], removed: Set<String>) {
        let doomed = Set(subtree(of: path))
        let kept = files.filter { name, _ in
            let stored = FilePaths.path(ofStoredName: name)
            return !doomed.contains(stored) && !doomed.contains(FilePaths.folder(stored))
        }
        return (kept, doomed)
    }

    /// `path` and everything below it, parents first.
    package func subtree(of path: String) -> [String] {
        guard let kind = kind(of: path) else { return [] }
        if case .file = kind { return [FilePaths.file(path)] }
        let prefix = FilePaths.folder(path)
        return (folders.filter { $0.hasPrefix(prefix) } + files.keys.filter { $0.hasPrefix(prefix) }).sorted()
    }
}
