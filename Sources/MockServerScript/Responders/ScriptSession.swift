import MockServerCore
/// Per-connection state that a ``ScriptResponder`` may read and change.
public struct ScriptSession: Sendable {
    /// The connection's identifier, as in the transcript.
    public let connectionID: Int
    /// The response set this connection was switched to by a ``ScriptCommand/useSet(_:)``, if any.
    public var responseSet: String?

    /// Creates the state of a new connection.
    public init(connectionID: Int, responseSet: String? = nil) {
        self.connectionID = connectionID
        self.responseSet = responseSet
    }
}
