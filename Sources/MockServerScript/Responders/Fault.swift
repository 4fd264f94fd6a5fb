import MockServerCore
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
    /// Refuses this connection's next FTP data connection (`«refuse-data»`): the passive listener
    /// is closed at once, so a client connecting to it is refused, an early data connection is
    /// dropped, and an active-mode transfer does not connect; the transfer then answers
    /// `425 Can't open data connection.` instead of the rest of its response.
    case refuseData
    /// Holds back this connection's next FTP data transfer for `delay` (`{"delay-data": seconds}`):
    /// a passive connection is accepted but carries nothing, and an active one is made, only then.
    case delayData(Duration)
}
