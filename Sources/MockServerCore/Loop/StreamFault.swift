/// The failures a byte stream can be made to show, whatever the protocol on it.
public enum StreamFault: Sendable, Hashable {
    /// Sends what came before, then resets the connection (an RST, not a FIN).
    case reset
    /// Sends what came before, then stops sending (a FIN) while still reading.
    case halfClose
    /// Keeps the connection open and never answers again.
    case hang
    /// Sends only the first `bytes` bytes of the next send, then closes.
    case truncate(bytes: Int)
    /// Sends the rest of this answer at `bytesPerSecond`, in small pieces.
    case dribble(bytesPerSecond: Int)
}
