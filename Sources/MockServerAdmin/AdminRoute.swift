import MockServerEngine
import MockServerHTTP

/// One route of the control API: a method and a path pattern, how the 404 lists it, and the
/// handler that answers it with typed parameters (``AdminCall``).
struct AdminRoute: Sendable {
    /// The paths a route takes.
    enum PathPattern: Sendable, Equatable {
        /// Exactly this path.
        case exact(String)
        /// A path that starts with `prefix`: the rest (PATH, NAME) is the handler's parameter;
        /// with `restMayBeEmpty`, `prefix` alone matches too (with an empty rest).
        case prefix(String, restMayBeEmpty: Bool)

        /// The rest of `path` after the pattern (`""` for an exact match), or `nil` when `path` is not taken.
        func match(_ path: String) -> String? {
            switch self {
            case .exact(let exact):
                return path == exact ? "" : nil
            case .prefix(let prefix, let restMayBeEmpty):
                guard path.hasPrefix(prefix) else { return nil }
                let rest = String(path.dropFirst(prefix.count))
                return rest.isEmpty && !restMayBeEmpty ? nil : rest
            }
        }

        /// Whether some path is taken by both this pattern and `other`.
        func overlaps(_ other: PathPattern) -> Bool {
            switch (self, other) {
            case (.exact(let path), _): return other.match(path) != nil
            case (_, .exact(let path)): return match(path) != nil
            case (.prefix(let mine, _), .prefix(let theirs, _)):
                // The longer prefix followed by anything is taken by both when one starts with the other.
                return mine.hasPrefix(theirs) || theirs.hasPrefix(mine)
            }
        }
    }

    /// The request method (`GET`, `PUT`, `POST`, `DELETE`).
    let method: String
    /// The paths it takes.
    let path: PathPattern
    /// How the 404 lists it (`GET /transcript?since=N&wait=S`): one line per way of calling it.
    let usages: [String]
    /// The answer; a thrown ``AdminFailure`` is answered as `{"error": …}` with its status.
    let handle: @Sendable (AdminCall) throws(AdminFailure) -> HTTPReply.Immediate
}
