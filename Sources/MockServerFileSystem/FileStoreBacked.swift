/// A protocol's view of the server's files that works on a ``FileStore`` of its own (FTP's file
/// system, WebDAV's handler): it reads and hands back the files and their times through it.
package protocol FileStoreBacked {
    /// The files, their times and the protocols' state, as the view changes them.
    var store: FileStore { get set }
}

extension FileStoreBacked {
    /// The server's files, shared by every protocol.
    package var files: [String: [UInt8]] {
        get { store.files }
        set { store.files = newValue }
    }

    /// When each file and folder was made and changed, shared by every protocol.
    package var times: FileTimes {
        get { store.times }
        set { store.times = newValue }
    }
}
