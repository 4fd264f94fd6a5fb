/// A resolved step for a connection to carry out: what a ``Responder`` returns.
public enum Action: Sendable, Hashable {
    /// Writes bytes.
    case send([UInt8])
    /// Waits before the next action.
    case pause(Duration)
    /// Closes the connection once everything before it has been sent.
    case close
    /// Switches this connection to the named response set.
    case useSet(String)
}
