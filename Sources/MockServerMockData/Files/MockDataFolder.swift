import Foundation
@_spi(HotPath) import MockServerCore
import MockServerHTTP

/// The mock-data files of one folder. A request looks its candidate names up directly (one `stat`
/// each, never a listing of the folder), so 10,000 files cost what 10 do; a file's response is
/// parsed once and kept while its `stat` stays the same.
///
/// Only files directly in the folder count (a name never holds a `/`). A file that resolves,
/// through symbolic links, to somewhere outside the folder is treated as missing, so no request can
/// read past it. Files added, edited or removed while serving are seen at the next request: a kept
/// response is trusted only once its file's modification time is a second older than the moment
/// it was read (the "racy" rule Git uses, since file times advance in coarse steps); until then the
/// file is read again each time.
final class MockDataFolder: Sendable {
    /// A file as last read: what `stat` said, when it was read, and its response or why it has none.
    private struct Entry: Sendable {
        let stamp: FileStamp
        let readAt: Int64
        let response: Result<HTTPMockResponse, MockDataError>

        /// Whether a later change to the file must show in its `stat`.
        var isSettled: Bool { readAt - stamp.modified > 1_000_000_000 }
    }

    /// The folder's path with symbolic links resolved.
    let path: String
    private let entries = Locked<[String: Entry]>([:])

    /// Reads and checks every mock-data file in `url`.
    ///
    /// - Throws: ``MockDataError/folderUnavailable(path:reason:)`` when `url` is not a readable
    ///   folder; the first malformed or unreadable file's error.
    init(url: URL) throws(MockDataError) {
        let resolved = url.standardizedFileURL.resolvingSymlinksInPath().path
        guard let stamp = FileStamp(path: resolved) else { throw .folderUnavailable(path: url.path, reason: "it does not exist") }
        guard stamp.isDirectory else { throw .folderUnavailable(path: url.path, reason: "it is not a folder") }
        path = resolved
        try reload()
    }

    /// The response of the file named `name`, or the error that keeps it from answering; `nil`
    /// when there is no such file in the folder.
    func response(named name: String) -> Result<HTTPMockResponse, MockDataError>? {
        let file = path + "/" + name
        guard let stamp = FileStamp(path: file), stamp.isRegularFile else { return nil }
        let held = entries.withLock { $0[name] }
        if let held, held.stamp == stamp, held.isSettled { return held.response }
        guard var entry = Self.load(file, in: path, stamp: stamp) else {
            entries.withLock { $0[name] = nil }
            return nil
        }
        if let held, case .success(let earlier) = held.response, case .success(let read) = entry.response, read == earlier {
            // Read again while its file could still change unseen, and unchanged: the response held
            // is kept, so that every answer shares its body rather than each holding its own copy.
            entry = Entry(stamp: entry.stamp, readAt: entry.readAt, response: held.response)
        }
        entries.withLock { $0[name] = entry }
        return entry.response
    }

    /// Reads and checks every file again.
    ///
    /// - Throws: the first malformed or unreadable file's error.
    func reload() throws(MockDataError) {
        var loaded: [String: Entry] = [:]
        for name in try listing() {
            let file = path + "/" + name
            guard let stamp = FileStamp(path: file), stamp.isRegularFile, let entry = Self.load(file, in: path, stamp: stamp) else { continue }
            if case .failure(let error) = entry.response { throw error }
            loaded[name] = entry
        }
        entries.withLock { $0 = loaded }
    }

    /// The names of the files that can answer, sorted.
    var fileNames: [String] {
        ((try? listing()) ?? []).filter { name in
            let file = path + "/" + name
            return FileStamp(path: file)?.isRegularFile == true && Self.isInside(file, folder: path)
        }.sorted()
    }

    /// The names in the folder with a searched extension.
    private func listing() throws(MockDataError) -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: path).filter { name in
                MockDataNaming.extensions.contains { name.hasSuffix($0) }
            }
        } catch {
            throw .folderUnavailable(path: path, reason: (error as NSError).localizedDescription)
        }
    }

    private static func isInside(_ file: String, folder: String) -> Bool {
        URL(fileURLWithPath: file).resolvingSymlinksInPath().path.hasPrefix(folder + "/")
    }

    /// The file at `file` as an entry; `nil` when it resolves to somewhere outside `folder`.
    private static func load(_ file: String, in folder: String, stamp: FileStamp) -> Entry? {
        guard isInside(file, folder: folder) else { return nil }
        let readAt = Int64(Date().timeIntervalSince1970 * 1_000_000_000)
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        } catch {
            return Entry(stamp: stamp, readAt: readAt, response: .failure(.unreadableFile(path: file, reason: (error as NSError).localizedDescription)))
        }
        do {
            return Entry(stamp: stamp, readAt: readAt, response: .success(try MockDataFile.response(path: file, bytes: bytes)))
        } catch {
            return Entry(stamp: stamp, readAt: readAt, response: .failure(error))
        }
    }
}
