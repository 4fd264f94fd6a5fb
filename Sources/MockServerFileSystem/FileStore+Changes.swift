import Foundation

/// The changes every protocol makes to the server's files the same way: making a folder, removing,
/// copying and moving, on decoded paths (a protocol parses its own URIs or arguments first). Each
/// keeps the files' times: what is made is made at the date given, a moved file keeps its times,
/// and a folder that gains or loses an entry changes then.
extension FileStore {
    /// Makes the empty folder at `path` (with or without a leading or trailing `/`); the folders
    /// above it are implied by it.
    ///
    /// - Returns: `false`, and nothing changes, when `path` is `/` or a file or folder is there.
    @discardableResult
    package mutating func makeFolder(_ path: String, at date: Date) -> Bool {
        let folder = FilePaths.folder(FilePaths.resolved(path))
        guard folder != "/", tree.kind(of: folder) == nil else { return false }
        files[folder] = []
        times.entries[folder] = FileInfo(at: date)
        times.folderChanged(FilePaths.parent(folder), at: date)
        return true
    }

    /// Removes the file, or the folder and everything in it, at `path`, with their times; `/`
    /// removes every file and folder.
    ///
    /// - Returns: The paths removed (folders ending in `/`), or `nil` when nothing is there.
    @discardableResult
    package mutating func remove(_ path: String, at date: Date) -> Set<String>? {
        let path = FilePaths.resolved(path)
        let tree = self.tree
        guard tree.kind(of: path) != nil else { return nil }
        let removed: Set<String>
        (files, removed) = tree.removing(subtreeOf: path, from: files)
        times.forget(removed)
        times.folderChanged(FilePaths.parent(path), at: date)
        return removed
    }

    /// Copies, or with `move` moves, the file, or the folder and everything in it (`shallow`: the
    /// folder alone), at `source` to `destination`, replacing what is there: a file, or a folder
    /// and everything in it. A copy is made at `date`; what moves keeps its times.
    ///
    /// - Returns: Each path copied with its new path, parents first; `nil`, and nothing changes,
    ///   when nothing is at `source`, when `source` or `destination` is `/`, when they are the same,
    ///   or when a folder would go inside itself.
    @discardableResult
    package mutating func copy(_ source: String, to destination: String, move: Bool, shallow: Bool = false,
                               at date: Date) -> [(from: String, to: String)]? {
        let tree = self.tree
        let source = FilePaths.resolved(source), destination = FilePaths.resolved(destination)
        guard let kind = tree.kind(of: source) else { return nil }
        let from = kind == .folder ? FilePaths.folder(source) : FilePaths.file(source)
        let to = kind == .folder ? FilePaths.folder(destination) : FilePaths.file(destination)
        guard from != "/", to != "/", from != to, kind != .folder || !to.hasPrefix(from) else { return nil }
        // Read before anything is removed: the destination may hold the source (a file moved
        // onto the folder it is in).
        let copies = (shallow ? [from] : tree.subtree(of: from)).map { member in
            (from: member, to: to + member.dropFirst(from.count), bytes: tree.files[member].flatMap { files[$0] } ?? [], info: times.info(member))
        }
        if tree.kind(of: to) != nil { remove(to, at: date) }
        if move { remove(from, at: date) }
        for copy in copies {
            files[copy.to] = copy.bytes
            times.entries[copy.to] = move ? copy.info : FileInfo(at: date)
        }
        times.folderChanged(FilePaths.parent(to), at: date)
        return copies.map { ($0.from, $0.to) }
    }
}
