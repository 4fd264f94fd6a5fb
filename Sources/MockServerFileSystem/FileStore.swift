/// The server's files as every protocol shares them: names to bytes, their times, and the state a
/// protocol keeps beside them (WebDAV's locks and properties, say), changed together under one lock.
package struct FileStore: Sendable {
    /// Name → bytes; a name ending in `/` is a folder. Any change lets go of the tree made from
    /// the old files.
    package var files: [String: [UInt8]] {
        didSet { treeCache = FileTreeCache() }
    }
    /// The times of the files and folders.
    package var times: FileTimes
    /// Each protocol's own state, by its type.
    private var states: [ObjectIdentifier: any Sendable] = [:]
    /// ``files`` as a tree, made once for these files: copies of the store share it until one
    /// of them changes its files (and gets a new, empty cache).
    private var treeCache = FileTreeCache()

    package init(files: [String: [UInt8]] = [:], times: FileTimes) {
        self.files = files
        self.times = times
    }

    /// The files as a tree of decoded paths, made on first use and kept until ``files`` changes:
    /// a protocol answering one command needs no walk over every stored name.
    package var tree: FileTree { treeCache.tree(of: files) }

    /// The state a protocol keeps of type `State`, made with `initial` the first time it is asked for.
    package subscript<State: Sendable>(_ type: State.Type, default initial: @autoclosure () -> State) -> State {
        get { states[ObjectIdentifier(type)] as? State ?? initial() }
        set { states[ObjectIdentifier(type)] = newValue }
    }
}
