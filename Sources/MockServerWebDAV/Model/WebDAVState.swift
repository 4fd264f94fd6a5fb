import Foundation

/// The WebDAV side of the server's files: resource details and locks, kept beside the files
/// (which hold the bytes, shared with FTP and the scripts' file commands).
package struct WebDAVState: Sendable {
    /// By path (folder paths end in `/`); a file or folder without an entry is treated as made
    /// when the state was.
    package var resources: [String: WebDAVResourceInfo] = [:]
    /// The locks in force (expired ones are dropped as requests come).
    package var locks: [WebDAVLock] = []
    /// When files without an entry were made.
    package let origin: Date

    package init(origin: Date = Date()) {
        self.origin = origin
    }

    /// The details of `path`, made now if it has none.
    package func info(_ path: String) -> WebDAVResourceInfo {
        resources[path] ?? WebDAVResourceInfo(at: origin)
    }
}
