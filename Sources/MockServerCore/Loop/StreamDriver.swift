/// The protocol behaviour of one ``StreamConnection``: it frames the bytes that arrive and decides
/// the steps that answer them. The connection does the I/O, the timing and the faults.
///
/// A driver lives on the loop's thread. It chooses its framing per unit (SMTP's `DATA`, an HTTP
/// body), so the framer is the driver's, not the connection's.
package protocol StreamDriver: AnyObject {
    /// The steps to run when the connection opens (a banner, say).
    func opened(_ connection: StreamConnection) -> [StreamStep]
    /// Bytes that arrived from the peer.
    func received(_ bytes: UnsafeRawBufferPointer, on connection: StreamConnection)
    /// What to do next, asked whenever every step so far has run: the steps answering the next
    /// complete unit, or a wait for more input. `inputEnded` is true once the peer has finished sending.
    func next(on connection: StreamConnection, inputEnded: Bool) -> DriverDecision
    /// The connection closed; release what belongs to it (a data channel, a task).
    func closed(_ connection: StreamConnection, reason: Transcript.CloseReason)
    /// The connection's queued output fell below ``StreamConnection/outputRoom`` bytes after being
    /// at or past it. A driver that sends outside its steps (with ``StreamConnection/sendNow(_:)``:
    /// HTTP/2's streams, a relay) stops producing while ``StreamConnection/hasOutputRoom`` is false,
    /// so that a peer that does not read costs at most that much, and goes on from here.
    func outputDrained(on connection: StreamConnection)
}

extension StreamDriver {
    /// Nothing: a driver whose output is all in its steps is paced by the connection already.
    package func outputDrained(on connection: StreamConnection) {}
}

/// A driver's answer to ``StreamDriver/next(on:inputEnded:)``.
package enum DriverDecision {
    /// Run these steps, then ask again.
    case steps([StreamStep])
    /// Read more input, then ask again.
    case needInput
    /// The driver is busy (an answer is being computed elsewhere); it calls
    /// ``StreamConnection/resume(with:)`` when it is done.
    case wait
    /// Close the connection once its output is sent.
    case finish(Transcript.CloseReason)
}
