extension Transcript {
    /// Something that happened on a connection.
    public enum Event: Sendable, Hashable {
        /// A peer connected from `peer` (`host:port`).
        case connected(peer: String)
        /// An input unit arrived and the named response (if the responder names one) answered it.
        case input(InputUnit, response: String?)
        /// An input unit matched nothing.
        case unmatched(InputUnit)
        /// Bytes were queued for the peer (one entry per send command). On HTTP/2, whose frames are
        /// binary, a stream's response is recorded instead, on its request's exchange: its head
        /// (`HTTP/2 200` and its fields), its body's bytes as they went, its trailers' fields.
        case output([UInt8])
        /// The connection's driver sent this many bytes that it does not record as ``output(_:)``
        /// (a transfer on FTP's data channel, say).
        case sent(Int)
        /// The connection's driver received this many bytes that are not ``input(_:response:)``.
        case received(Int)
        /// Something a protocol recorded that has no case of its own (FTP's upload progress, say).
        case note(Transcript.Note)
        /// An upload was received completely (its bytes are in ``MockServer/uploads``).
        case uploaded(name: String, byteCount: Int)
        /// A pause began.
        case paused(Duration)
        /// The connection switched to another response set.
        case switchedSet(String)
        /// The connection closed.
        case closed(Transcript.CloseReason)
    }
}

extension Transcript.Event {
    /// The bytes of input or output the event holds (an input's, an unmatched input's or an
    /// output's); 0 for the others. Counted against ``Transcript/byteLimit``.
    package var payloadByteCount: Int {
        switch self {
        case .input(let unit, _), .unmatched(let unit): unit.bytes.count
        case .output(let bytes): bytes.count
        default: 0
        }
    }
}
