/// A stream's state (RFC 9113 §5.1), without the reserved states: this side never pushes, and refuses
/// PUSH_PROMISE. A stream the connection does not hold is idle above the highest identifier used,
/// closed below it (§5.1.1).
package enum HTTP2StreamState: Equatable, Sendable {
    /// Both sides may send.
    case open
    /// This side sent END_STREAM; the peer may still send.
    case halfClosedLocal
    /// The peer sent END_STREAM; this side may still send.
    case halfClosedRemote

    /// The state after this side sends END_STREAM, or nil when the stream closes.
    var afterLocalEnd: Self? { self == .open ? .halfClosedLocal : nil }
    /// The state after the peer's END_STREAM, or nil when the stream closes.
    var afterRemoteEnd: Self? { self == .open ? .halfClosedRemote : nil }
    /// Whether the peer may still send DATA or HEADERS.
    package var peerMaySend: Bool { self != .halfClosedRemote }
    /// Whether this side may still send DATA or HEADERS.
    package var localMaySend: Bool { self != .halfClosedLocal }
}
