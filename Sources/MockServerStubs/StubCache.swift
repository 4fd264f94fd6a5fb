import MockServerCore

/// Values shared by every request of one server (Voodoo's pan-request cache): a login stores the
/// user's name, the profile reads it. Lives as long as the server; safe from any thread.
///
/// ```swift
/// server.add(.POST, "/login") { request, cache in cache.username = request.formParameters.name; return .ok() }
/// ```
@dynamicMemberLookup
public final class StubCache: Sendable {
    private let values = Locked<[String: any Sendable]>([:])

    /// Creates an empty cache.
    public init() {}

    /// The value stored under `key`; setting `nil` removes it.
    public subscript(key: String) -> (any Sendable)? {
        get { values.withLock { $0[key] } }
        set { values.withLock { $0[key] = newValue } }
    }

    /// The value stored under the member's name: `cache.username`.
    public subscript(dynamicMember key: String) -> (any Sendable)? {
        get { self[key] }
        set { self[key] = newValue }
    }

    /// Every key, sorted.
    public var keys: [String] { values.withLock { $0.keys.sorted() } }

    /// Forgets every value.
    public func removeAll() {
        values.withLock { $0.removeAll() }
    }
}
