/// One step a ``StreamConnection`` carries out for its driver, in order with the others.
///
/// A step list is what a driver answers one input unit (or a new connection) with; the connection
/// takes no further input until every step has run.
package enum StreamStep {
    /// Writes bytes (subject to a ``StreamFault/truncate(bytes:)`` or ``StreamFault/dribble(bytesPerSecond:)``).
    case send([UInt8])
    /// Writes these arrays in order as one send: each is queued as it is, so a large one (a body
    /// many connections send) shares its storage rather than being copied; each is recorded as its
    /// own ``Transcript/Event/output(_:)``. A truncate or dribble shapes them as one send.
    case sendParts([[UInt8]])
    /// Waits before the next step, on a timer: no thread is held and input is not read meanwhile.
    case pause(Duration)
    /// Closes the connection once everything before it has been sent, for `reason`.
    case close(Transcript.CloseReason)
    /// A failure on demand.
    case fault(StreamFault)
    /// Waits until everything sent so far has been written to the transport (and the sending side
    /// shut down, after a ``StreamFault/halfClose``), then runs driver code.
    case whenWritten(() -> Void)
    /// Runs driver code on the loop at this point of the list. The code may send, hold the
    /// connection, or replace the rest of the list.
    case run(() -> Void)
}
