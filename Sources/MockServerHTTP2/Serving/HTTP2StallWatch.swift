/// The zero-window defence: a connection whose response bytes all wait for a window the client
/// keeps shut (RFC 9113 §6.9: a client may hold a window at zero as long as it likes) holds the
/// server's memory for nothing. Once they have waited ``timeout`` with no window opened, the
/// connection ends with GOAWAY ENHANCE_YOUR_CALM: the client is not breaking flow control's rules
/// (FLOW_CONTROL_ERROR would say it did), and NO_ERROR would pass a refusal off as a graceful close.
///
/// A value the driver feeds: what it sees after each turn (``observe(blocked:now:)``), each window
/// that opens (``windowOpened()``), and the timer it arms when a wait begins (``timerFired(now:)``).
/// One timer at most is armed per connection, and none while nothing waits, so a connection that
/// never meets a zero window never arms one. Times are nanoseconds of a monotonic clock.
package struct HTTP2StallWatch: Sendable {
    /// Whether bytes wait on a shut window.
    package enum Phase: Equatable, Sendable {
        /// Nothing waits on a window, or one opened since the last look.
        case flowing
        /// Bytes have waited since then with no window opened.
        case waiting(since: UInt64)
    }

    /// What a timer's firing calls for.
    package enum Verdict: Equatable, Sendable {
        /// Nothing: no bytes wait on a window (the timer is not armed again).
        case wait
        /// A timer to arm at this deadline: bytes wait, but not yet for the timeout (the wait began
        /// after the one the timer was armed for).
        case arm(UInt64)
        /// The wait passed the timeout: the connection error to end the connection with.
        case expired(HTTP2Error)
    }

    /// The nanoseconds bytes may wait.
    package let timeout: UInt64
    package private(set) var phase = Phase.flowing
    /// The deadline of the timer armed, if one is.
    private var armed: UInt64?

    package init(timeout: UInt64) {
        self.timeout = timeout
    }

    /// A window opened (a WINDOW_UPDATE, or SETTINGS that grew every window): a wait ends.
    package mutating func windowOpened() {
        phase = .flowing
    }

    /// What the connection looks like after a turn: `blocked` when response bytes wait and no
    /// window lets any of them go. Returns the deadline of a timer to arm, when a wait begins and
    /// no timer is armed.
    package mutating func observe(blocked: Bool, now: () -> UInt64) -> UInt64? {
        guard blocked else {
            phase = .flowing
            return nil
        }
        guard case .flowing = phase else { return nil }
        let since = now()
        phase = .waiting(since: since)
        guard armed == nil else { return nil }
        armed = since &+ timeout
        return armed
    }

    /// The armed timer fired at `now`.
    package mutating func timerFired(now: UInt64) -> Verdict {
        armed = nil
        guard case .waiting(let since) = phase else { return .wait }
        let deadline = since &+ timeout
        guard now >= deadline else {
            armed = deadline
            return .arm(deadline)
        }
        return .expired(HTTP2Error(.enhanceYourCalm, "response bytes waited \((now - since) / 1_000_000) ms on a zero window (the zero-window timeout: \(timeout / 1_000_000) ms)"))
    }
}
