import MockServerHTTP2
import Testing

/// The zero-window defence's bookkeeping, on times the tests choose: when a wait begins, what a
/// window's opening does, when the timer is armed, and when the wait has lasted too long.
@Suite("HTTP/2 zero-window watch")
struct HTTP2StallWatchTests {
    static let second: UInt64 = 1_000_000_000
    static let expired = HTTP2Error(.enhanceYourCalm, "response bytes waited 30000 ms on a zero window (the zero-window timeout: 30000 ms)")

    /// Observes at `now` seconds (outside `#expect`, which cannot mutate).
    private func observe(_ watch: inout HTTP2StallWatch, blocked: Bool, at now: UInt64) -> UInt64? {
        watch.observe(blocked: blocked, now: { now * Self.second })
    }

    private func fire(_ watch: inout HTTP2StallWatch, at now: UInt64) -> HTTP2StallWatch.Verdict {
        watch.timerFired(now: now * Self.second)
    }

    @Test("a wait that begins arms one timer for its end; the timer past the timeout expires the connection")
    func expires() {
        var watch = HTTP2StallWatch(timeout: 30 * Self.second)
        #expect(observe(&watch, blocked: false, at: 1) == nil)
        #expect(observe(&watch, blocked: true, at: 10) == 40 * Self.second)
        #expect(watch.phase == .waiting(since: 10 * Self.second))
        // Still blocked: the wait goes on from its start, and no second timer is asked for.
        #expect(observe(&watch, blocked: true, at: 20) == nil)
        #expect(fire(&watch, at: 40) == .expired(Self.expired))
    }

    @Test("just under the timeout a window opens: the wait ends, and the timer finds nothing")
    func windowOpens() {
        var watch = HTTP2StallWatch(timeout: 30 * Self.second)
        #expect(observe(&watch, blocked: true, at: 10) == 40 * Self.second)
        watch.windowOpened()
        #expect(watch.phase == .flowing)
        #expect(observe(&watch, blocked: false, at: 39) == nil)
        #expect(fire(&watch, at: 40) == .wait)
        // The bytes all went: not blocked, no timer.
        #expect(observe(&watch, blocked: false, at: 41) == nil)
    }

    @Test("a window that opens and shuts again starts a new wait: the armed timer finds it short and asks for one at its end")
    func newWait() {
        var watch = HTTP2StallWatch(timeout: 30 * Self.second)
        #expect(observe(&watch, blocked: true, at: 10) == 40 * Self.second)
        watch.windowOpened()
        // Blocked again at once (the window let a little go): a new wait, the old timer still armed.
        #expect(observe(&watch, blocked: true, at: 25) == nil)
        #expect(fire(&watch, at: 40) == .arm(55 * Self.second))
        #expect(observe(&watch, blocked: true, at: 50) == nil)
        #expect(fire(&watch, at: 55) == .expired(Self.expired))
    }

    @Test("a wait that ends and begins again while no timer is armed arms a new one")
    func rearm() {
        var watch = HTTP2StallWatch(timeout: 30 * Self.second)
        #expect(observe(&watch, blocked: true, at: 10) == 40 * Self.second)
        #expect(observe(&watch, blocked: false, at: 20) == nil)
        #expect(fire(&watch, at: 40) == .wait)
        #expect(observe(&watch, blocked: true, at: 45) == 75 * Self.second)
        // A late timer (the loop was busy) still measures from the wait's start.
        #expect(fire(&watch, at: 90) == .expired(HTTP2Error(.enhanceYourCalm, "response bytes waited 45000 ms on a zero window (the zero-window timeout: 30000 ms)")))
    }

    @Test("the clock is read only when a wait begins")
    func clockReads() {
        var watch = HTTP2StallWatch(timeout: Self.second)
        var reads = 0
        for _ in 0..<100 { _ = watch.observe(blocked: false, now: { reads += 1; return 0 }) }
        for _ in 0..<100 { _ = watch.observe(blocked: true, now: { reads += 1; return 0 }) }
        #expect(reads == 1)
    }
}
