import MockServerCore

/// Values that a responder keeps for one connection, across its requests.
///
/// Safe to use from any thread.
public final class HTTPConnectionState: Sendable {
    private let values = Locked<[String: any Sendable]>([:])

    /// Creates an empty state.
    public init() {}

    /// The value stored under `key`, if any.
    public subscript(key: String) -> (any Sendable)? {
        get { values.withLock { $0[key] } }
        set { values.withLock { $0[key] = newValue } }
    }
}
