import Foundation

/// The times of the server's files, by path (folder paths end in `/`), shared by FTP and WebDAV. A
/// file or folder without an entry counts as made at `origin`, when the server started.
package struct FileTimes: Sendable {
    package var entries: [String: FileInfo] = [:]
    package let origin: Date

    package init(origin: Date = Date()) {
        self.origin = origin
    }

    /// The times of `path`.
    package func info(_ path: String) -> FileInfo {
        entries[path] ?? FileInfo(at: origin)
    }

    /// Marks `folder` as changed at `date`: something in it was added, removed or renamed.
    package mutating func folderChanged(_ folder: String, at date: Date) {
        let key = FilePaths.folder(folder)
        var info = self.info(key)
        info.modified = date
        entries[key] = info
    }

    /// Forgets the times of `paths` (removed files and folders).
    package mutating func forget<Paths: Sequence>(_ paths: Paths) where Paths.Element == String {
        for path in paths { entries[path] = nil }
    }

    /// Marks `path` as changed at `date` (made then, if it has no entry).
    package mutating func touch(_ path: String, at date: Date) {
        var info = entries[path] ?? FileInfo(at: date)
        info.modified = date
        entries[path] = info
    }
}
