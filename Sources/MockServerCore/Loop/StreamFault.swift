/// The failures a byte stream can be made to show, whatever the protocol on it.
public enum StreamFault: Sendable, Hashable {
    /// Sends what came before, then resets the connection (an RST, not a FIN).
    case reset
    /// Sends what came before, then stops sending (a FIN) while still reading.
    case halfClose
    /// Keeps the connection open and never answers again.
    case hang
    /// Sends only the first `bytes` bytes of the next send, then closes. The count starts at the
    /// answer's first byte: for HTTP, at the status line, so a count shorter than the head cuts the
    /// head (a client then has no response at all); ``truncateBody(after:)`` cuts only the body.
    case truncate(bytes: Int)
    /// Sends the answer's head whole and the first `bytes` bytes of its body, then closes: what a
    /// client sees when a server dies mid-body. It counts the body HTTP stubs and endpoints send;
    /// on a stream without a head (a line protocol, a script's own bytes) it is
    /// ``truncate(bytes:)``.
    case truncateBody(after: Int)
    /// Sends the rest of this answer at `bytesPerSecond`, in small pieces.
    case dribble(bytesPerSecond: Int)
}
