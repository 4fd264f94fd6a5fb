/// The server's files as every protocol shares them: names to bytes, their times, and the state a
/// protocol keeps beside them (WebDAV's locks and properties, say), changed together under one lock.
package struct FileStore: Sendable {
    /// Name → bytes; a name ending in `/` is a folder.
    package var files: [String: [UInt8]]
    /// The times of the files and folders.
    package var times: FileTimes
    /// Each protocol's own state, by its type.
    private var states: [ObjectIdentifier: any Sendable] = [:]

    package init(files: [String: [UInt8]] = [:], times: FileTimes) {
        self.files = files
        self.times = times
    }

    /// The state a protocol keeps of type `State`, made with `initial` the first time it is asked for.
    package subscript<State: Sendable>(_ type: State.Type, default initial: @autoclosure () -> State) -> State {
        get { states[ObjectIdentifier(type)] as? State ?? initial() }
        set { states[ObjectIdentifier(type)] = newValue }
    }
}
