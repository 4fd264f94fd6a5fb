@_spi(HotPath) import MockServerCore

/// The tree of one ``FileStore``'s files, made the first time it is asked for: a store replaces
/// its cache whenever its files change, so what a cache holds always matches the files of every
/// store that shares it.
final class FileTreeCache: Sendable {
    /// The tree once made (a store's copies may be read on several threads).
    private let made = Locked<FileTree?>(nil)

    /// The tree of `files`, which are the files of the store that owns this cache.
    func tree(of files: [String: [UInt8]]) -> FileTree {
        made.withLock { made in
            if let made { return made }
            let tree = FileTree(files: files)
            made = tree
            return tree
        }
    }
}
