import Foundation
import MockServerCore
import MockServerHTTP

/// The mock-data files of one folder, read once and kept in memory by name, so that a request costs
/// a few dictionary lookups however many files there are.
///
/// Only files directly in the folder with a searched extension count. A file that resolves (through
/// symbolic links) to somewhere outside the folder is left out, so no request can read past it.
/// The folder stays live: a file is read again when its `stat` changes (checked each time it
/// answers), and the folder is listed again when a lookup finds nothing and the folder itself
/// changed (a file added, removed or renamed).
final class MockDataFolder: Sendable {
    /// A loaded file: what `stat` said when it was read, and its response or why it has none.
    private struct Entry: Sendable {
        let stamp: FileStamp
        let response: Result<HTTPResponse, MockDataError>
    }

    private struct State: Sendable {
        var entries: [String: Entry] = [:]
        var folderStamp: FileStamp?
    }

    /// The folder's path with symbolic links resolved.
    let path: String
    private let state: Locked<State>

    /// Reads every mock-data file in `url`.
    ///
    /// - Throws: ``MockDataError/folderUnavailable(path:reason:)`` when `url` is not a readable
    ///   folder; the first malformed or unreadable file's error.
    init(url: URL) throws(MockDataError) {
        let resolved = url.standardizedFileURL.resolvingSymlinksInPath().path
        guard let stamp = FileStamp(path: resolved) else { throw .folderUnavailable(path: url.path, reason: "it does not exist") }
        guard stamp.isDirectory else { throw .folderUnavailable(path: url.path, reason: "it is not a folder") }
        path = resolved
        state = Locked(State(entries: try Self.scan(resolved, keeping: [:], strict: true), folderStamp: stamp))
    }

    /// The response of the file named `name`, or the error that keeps it from answering; `nil`
    /// when there is no such file.
    func response(named name: String) -> Result<HTTPResponse, MockDataError>? {
        state.withLock { state in
            guard let entry = state.entries[name] else { return nil }
            let file = path + "/" + name
            guard let stamp = FileStamp(path: file), stamp.isRegularFile else {
                state.entries[name] = nil
                return nil
            }
            guard stamp != entry.stamp else { return entry.response }
            let reloaded = Self.load(file, in: path, stamp: stamp)
            state.entries[name] = reloaded
            return reloaded?.response
        }
    }

    /// Lists the folder again if it changed since it was last listed; whether it had.
    func refreshIfChanged() -> Bool {
        state.withLock { state in
            let stamp = FileStamp(path: path)
            guard stamp != state.folderStamp else { return false }
            state.folderStamp = stamp
            state.entries = (try? Self.scan(path, keeping: state.entries, strict: false)) ?? [:]
            return true
        }
    }

    /// Reads every file again.
    ///
    /// - Throws: the first malformed or unreadable file's error (the folder then stays as it was).
    func reload() throws(MockDataError) {
        let entries = try Self.scan(path, keeping: [:], strict: true)
        state.withLock { state in
            state.entries = entries
            state.folderStamp = FileStamp(path: path)
        }
    }

    /// The names of the files that can answer, sorted.
    var fileNames: [String] { state.withLock { $0.entries.keys.sorted() } }

    /// The folder's files by name: `kept` entries whose `stat` is unchanged are reused; with
    /// `strict`, a file that does not load stops the scan with its error.
    private static func scan(_ folder: String, keeping kept: [String: Entry], strict: Bool) throws(MockDataError) -> [String: Entry] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw .folderUnavailable(path: folder, reason: (error as NSError).localizedDescription)
        }
        var entries: [String: Entry] = [:]
        entries.reserveCapacity(names.count)
        for name in names where MockDataNaming.extensions.contains(where: { name.hasSuffix($0) }) {
            let file = folder + "/" + name
            guard let stamp = FileStamp(path: file), stamp.isRegularFile else { continue }
            if let entry = kept[name], entry.stamp == stamp {
                entries[name] = entry
                continue
            }
            guard let entry = load(file, in: folder, stamp: stamp) else { continue }
            if strict, case .failure(let error) = entry.response { throw error }
            entries[name] = entry
        }
        return entries
    }

    /// The file at `file` as an entry; `nil` when it resolves to somewhere outside `folder`.
    private static func load(_ file: String, in folder: String, stamp: FileStamp) -> Entry? {
        let resolved = URL(fileURLWithPath: file).resolvingSymlinksInPath().path
        guard resolved.hasPrefix(folder + "/") else { return nil }
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        } catch {
            return Entry(stamp: stamp, response: .failure(.unreadableFile(path: file, reason: (error as NSError).localizedDescription)))
        }
        do {
            return Entry(stamp: stamp, response: .success(try MockDataFile.response(path: file, bytes: bytes)))
        } catch {
            return Entry(stamp: stamp, response: .failure(error))
        }
    }
}
