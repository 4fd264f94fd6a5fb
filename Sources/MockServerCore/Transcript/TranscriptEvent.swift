/// Something that happened on a connection.
public enum TranscriptEvent: Sendable, Hashable {
    /// A peer connected from `peer` (`host:port`).
    case connected(peer: String)
    /// An input unit arrived and the named response (if the responder names one) answered it.
    case input(InputUnit, response: String?)
    /// An input unit matched nothing.
    case unmatched(InputUnit)
    /// Bytes were queued for the peer (one entry per send command).
    case output([UInt8])
    /// A data connection sent this many bytes.
    case dataSent(Int)
    /// A data connection received this many bytes.
    case dataReceived(Int)
    /// A data connection receiving an upload has this many bytes so far (recorded as they come, at
    /// most every 100 ms).
    case dataProgress(Int)
    /// An upload's data connection was quiet for the settle time after `received` bytes: the script
    /// went on (its `226`) while the connection is read to its end.
    case uploadSettled(received: Int, quiet: Duration)
    /// An upload was received completely (its bytes are in ``MockServer/uploads``).
    case uploaded(name: String, byteCount: Int)
    /// A pause began.
    case paused(Duration)
    /// The connection switched to another response set.
    case switchedSet(String)
    /// The connection closed.
    case closed(CloseReason)
}
