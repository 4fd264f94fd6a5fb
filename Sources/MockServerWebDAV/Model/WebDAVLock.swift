import Foundation
import MockServerFileSystem

/// A WebDAV write lock (RFC 4918 §6): who holds it, on what, and until when.
package struct WebDAVLock: Sendable, Hashable {
    /// Exclusive or shared.
    package enum Scope: String, Sendable {
        case exclusive, shared
    }

    /// The lock token, `opaquelocktoken:` and a UUID.
    package let token: String
    /// The locked resource's path (a folder path ends in `/`).
    package var root: String
    /// Whether the lock covers everything below `root` (`Depth: infinity`) or `root` alone.
    package let isDeep: Bool
    package let scope: Scope
    /// The `owner` element as the client sent it, as XML.
    package let owner: String?
    /// How long the lock lasts after `refreshed`; `nil` for ever.
    package var timeout: Int?
    package var refreshed: Date

    /// Whether the lock applies to `path`.
    package func covers(_ path: String) -> Bool {
        if path == root || FilePaths.folder(path) == root { return true }
        return isDeep && path.hasPrefix(FilePaths.folder(root))
    }

    /// Whether the lock has run out at `now`.
    package func hasExpired(at now: Date) -> Bool {
        timeout.map { now.timeIntervalSince(refreshed) >= Double($0) } ?? false
    }

    /// The `Timeout` header's value for the lock.
    package var timeoutText: String { timeout.map { "Second-\($0)" } ?? "Infinite" }
}
