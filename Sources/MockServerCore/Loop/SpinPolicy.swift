/// How long the event loop keeps polling without sleeping after a turn with events (its spin), from
/// how its recent spins ended: a pure value, so that the rule is tested without a loop.
///
/// A spin pays when the peer's next event comes sooner than a wake-up would: a client in C on
/// loopback asks again within a few microseconds. It wastes its whole window when the peer is
/// slower (a client in Python sends its next command 50 µs to a millisecond after the reply), and on
/// two shared cores that window is CPU the peer needed. So the loop spins for ``longWindow`` while at
/// most a fifth of its recent long spins expired, and otherwise for ``shortWindow``, which still
/// catches the loop's own quick events (a responder's answer coming back from another thread, the
/// second connection a reply announces). Every sixteenth spin is long whatever the share, so
/// that a peer that turns quick is noticed; only long spins change the share.
package struct SpinPolicy: Sendable {
    /// The spin while long spins mostly end with an event, in nanoseconds.
    package static let longWindow: UInt64 = 50_000
    /// The spin once too many long spins expired, in nanoseconds.
    package static let shortWindow: UInt64 = 10_000
    /// The share of expired long spins above which spins are short: a fifth, of 65,536.
    package static let threshold: UInt32 = 65_536 / 5

    /// The share of the recent long spins that expired, of 65,536: each long spin moves it a
    /// sixteenth of the way to 0 (ended with an event) or to 65,536 (expired).
    package private(set) var expiredShare: UInt32 = 0
    /// When the spin under way began and how long it lasts; `nil` while the loop may sleep.
    private var spin: (start: UInt64, window: UInt64)?
    /// Spins begun so far, for the sixteenth that is always long.
    private var spins: UInt8 = 0

    package init() {}

    /// The window of the spin under way, if there is one.
    package var window: UInt64? { spin?.window }

    /// A turn of the loop handled events, ending at `now`: the spin under way, if any, ended with an
    /// event; a new one begins.
    package mutating func activity(at now: UInt64) {
        if let spin { end(spin.window, expired: false) }
        spins &+= 1
        let long = expiredShare <= Self.threshold || spins % 16 == 0
        spin = (now, long ? Self.longWindow : Self.shortWindow)
    }

    /// Whether the loop polls without sleeping at `now`: true inside the spin's window. The first
    /// call past it ends the spin as expired.
    package mutating func polls(at now: UInt64) -> Bool {
        guard let spin else { return false }
        if now &- spin.start < spin.window { return true }
        end(spin.window, expired: true)
        self.spin = nil
        return false
    }

    private mutating func end(_ window: UInt64, expired: Bool) {
        guard window == Self.longWindow else { return }
        expiredShare = expiredShare - expiredShare / 16 + (expired ? 65_536 / 16 : 0)
    }
}
