/// Failures a script can make a connection show, for testing how clients cope.
public enum Fault: Sendable, Hashable {
    /// Sends what came before, then resets the connection (an RST, not a FIN) (`«reset»`).
    case reset
    /// Sends what came before, then stops sending (a FIN) while still reading (`«half-close»`).
    case halfClose
    /// Keeps the connection open and never answers again (`«hang»`).
    case hang
    /// Sends only the first `bytes` bytes of the next send, then closes (`{"truncate": N}`).
    case truncate(bytes: Int)
    /// Sends the rest of this response at `bytesPerSecond` (`{"dribble": bytesPerSecond}`).
    case dribble(bytesPerSecond: Int)
}
