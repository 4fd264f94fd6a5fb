/// Values kept under string keys and shared between threads: a server's cache across every request
/// (`HTTPMockServer.cache`). Safe from any thread.
///
/// ```swift
/// server.add(.POST, "/login") { request, cache in cache.username = request.formParameters.name; return .ok() }
/// ```
@dynamicMemberLookup
public final class SharedValues: Sendable {
    private let values = Locked<[String: any Sendable]>([:])

    /// Creates an empty store.
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
