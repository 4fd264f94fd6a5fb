import MockServerCore

/// HTTP/2's flood defences on what a client sends (``HTTP2DefenceLimits``): it counts the frames
/// that cost the server work and give it none, against two budgets, and says when one is spent.
///
/// - **Resets** (CVE-2023-44487, "rapid reset"): every RST_STREAM the client sends spends one of the
///   reset budget. Only time gives it back: a reset that crossed its stream's answer on the wire
///   counts too, as the client sent it not knowing.
/// - **Frames that carry nothing** (CVE-2019-9518, and CVE-2019-9512/9515's PING and SETTINGS
///   floods, CVE-2024-27316's CONTINUATIONs): DATA with no bytes and no END_STREAM, PRIORITY,
///   SETTINGS (acknowledgements too), PING, WINDOW_UPDATE on a stream that is closed, a CONTINUATION
///   with no bytes that does not end its block, a frame of a type this side does not know, and a
///   frame this side answers with RST_STREAM (``admitStreamError(now:)``, CVE-2019-9514) each spend
///   one of the empty-frame budget. Time gives it back, and so does useful work: each HEADERS frame
///   and each DATA frame that carries bytes returns a token, so that a long-lived connection (a
///   PING every few seconds, a browser's PRIORITY frames, a WINDOW_UPDATE that crosses its stream's
///   end) is never cut.
///
/// Time is read only when a token is spent; a request or a DATA frame with bytes costs a comparison.
package struct HTTP2FloodGuard: Sendable {
    private var resets: HTTP2Budget?
    private var emptyFrames: HTTP2Budget?
    /// How long a spent budget takes to come back, in words for the GOAWAY's debug data.
    private let refill: Duration

    package init(_ limits: HTTP2DefenceLimits) {
        let refill = MonotonicClock.nanoseconds(limits.refill)
        resets = limits.resetBudget.map { HTTP2Budget(capacity: $0, refill: refill) }
        emptyFrames = limits.emptyFrameBudget.map { HTTP2Budget(capacity: $0, refill: refill) }
        self.refill = limits.refill
    }

    /// Counts a frame the client sent, before the connection reads it: nil while the budgets last,
    /// else the connection error (ENHANCE_YOUR_CALM) to end the connection with.
    ///
    /// - Parameters:
    ///   - isOpen: whether a stream is open or half closed (asked only of a WINDOW_UPDATE's stream).
    ///   - now: the monotonic clock's nanoseconds (read only when a token is spent).
    package mutating func admit(_ frame: HTTP2Frame, isOpen: (UInt32) -> Bool, now: () -> UInt64) -> HTTP2Error? {
        switch frame.payload {
        case let .data(bytes, endStream, _):
            if !bytes.isEmpty { emptyFrames?.refund() } else if !endStream { return spendEmpty("DATA", now: now) }
        case .headers:
            emptyFrames?.refund()
        case let .continuation(block, endHeaders):
            if block.isEmpty, !endHeaders { return spendEmpty("CONTINUATION", now: now) }
        case .rstStream:
            guard resets != nil, !resets!.spend(now: now()) else { return nil }
            return HTTP2Error(.enhanceYourCalm, "streams reset faster than the reset budget allows (\(resets!.capacity) at once, coming back over \(refill))")
        case .priority:
            return spendEmpty("PRIORITY", now: now)
        case .settings:
            return spendEmpty("SETTINGS", now: now)
        case .ping:
            return spendEmpty("PING", now: now)
        case .windowUpdate:
            if frame.streamID != 0, emptyFrames != nil, !isOpen(frame.streamID) { return spendEmpty("WINDOW_UPDATE on a closed stream", now: now) }
        case .goAway:
            break
        case let .unknown(type, _, _):
            return spendEmpty("\(type)", now: now)
        }
        return nil
    }

    /// Counts a frame this side answers with RST_STREAM (a stream error) as one that carries
    /// nothing: nil while the budget lasts, else the connection error to end the connection with.
    package mutating func admitStreamError(now: () -> UInt64) -> HTTP2Error? {
        spendEmpty("frame answered with RST_STREAM", now: now)
    }

    private mutating func spendEmpty(_ kind: String, now: () -> UInt64) -> HTTP2Error? {
        guard emptyFrames != nil, !emptyFrames!.spend(now: now()) else { return nil }
        return HTTP2Error(.enhanceYourCalm, "frames that carry nothing faster than the empty-frame budget allows (\(emptyFrames!.capacity) at once, coming back over \(refill)); the last: \(kind)")
    }
}
