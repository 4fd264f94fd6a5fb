/// How long the event loop keeps polling without sleeping after a turn with events (its spin), from
/// how its recent spins ended: a pure value, so that the rule is tested without a loop.
///
/// A spin pays when the peer's next event comes sooner than a wake-up would: a client in C on
/// loopback asks again within a few microseconds. It wastes its whole window when the peer is
/// slower (a client in Python sends its next command 50 µs to a millisecond after the reply), and on
/// two shared cores that window is CPU the peer needed. So the loop spins for ``longWindow`` while at
/// most a fifth of its recent long spins expired, and otherwise for ``shortWindow``, which is no spin
/// at all: it sleeps at once, as nginx does. (A 10 µs short spin was tried: with a Python client's
/// sessions it still expired seven times a session, 140 polls; none made 17.) Every
/// ``probeInterval``th spin is long whatever the share, so that a peer that turns quick is noticed;
/// only long spins change the share.
package struct SpinPolicy: Sendable {
    /// The spin while long spins mostly end with an event, in nanoseconds.
    package static let longWindow: UInt64 = 50_000
    /// The spin once too many long spins expired, in nanoseconds: none.
    package static let shortWindow: UInt64 = 0
    /// Every this many spins, one is long whatever the share: rare, since a long spin that expires
    /// costs the whole window, and often enough to notice a quick peer within a few milliseconds.
    package static let probeInterval: UInt8 = 64
    /// The share of expired long spins above which spins are short: a fifth, of 65,536.
    package static let threshold: UInt32 = 65_536 / 5

    /// The share of the recent long spins that expired, of 65,536: each long spin moves it a
    /// sixteenth of the way to 0 (ended with an event) or to 65,536 (expired).
    package private(set) var expiredShare: UInt32 = 0
    /// When the spin under way began and how long it lasts; `nil` while the loop may sleep.
    private var spin: (start: UInt64, window: UInt64)?
    /// Spins begun so far (modulo 256), for the ones that are always long.
    private var spins: UInt8 = 0

    package init() {}

    /// The window of the spin under way, if there is one.
    package var window: UInt64? { spin?.window }

    /// A turn of the loop handled events, ending at `now`: the spin under way, if any, ended with an
    /// event; a new one begins.
    package mutating func activity(at now: UInt64) {
        if let spin { end(spin.window, expired: false) }
        spins &+= 1
        let long = expiredShare <= Self.threshold || spins % Self.probeInterval == 0
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
