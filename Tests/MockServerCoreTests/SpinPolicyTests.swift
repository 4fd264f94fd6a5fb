import Testing
import MockServerCore

/// The event loop's spin after activity: long while long spins end with events, none once more than
/// a fifth of them expire, long again every `probeInterval`th spin and once quick peers are back.
@Suite("Spin policy")
struct SpinPolicyTests {
    static let long = SpinPolicy.longWindow
    static let short = SpinPolicy.shortWindow

    /// `count` spins that each run out their window, starting at `time` (advanced past each).
    static func expire(_ count: Int, _ policy: inout SpinPolicy, time: inout UInt64) {
        for _ in 0..<count {
            policy.activity(at: time)
            let window = policy.window ?? 0
            if window > 0 {
                let inside = policy.polls(at: time + window - 1)
                #expect(inside)
            }
            time += window
            let past = policy.polls(at: time)
            #expect(!past)
        }
    }

    /// `count` spins that each end with an event 2 µs in: a long spin polls until it comes, a short
    /// one (no spin) sleeps, and the event wakes the loop.
    static func catchEvents(_ count: Int, _ policy: inout SpinPolicy, time: inout UInt64) {
        for _ in 0..<count {
            policy.activity(at: time)
            let long = policy.window == SpinPolicy.longWindow
            time += 2_000
            let polled = policy.polls(at: time)
            #expect(polled == long)
        }
    }

    @Test("an idle loop sleeps; after activity it polls for the long window, then sleeps")
    func idleThenActivity() {
        var policy = SpinPolicy()
        let idle = policy.polls(at: 1_000)
        #expect(!idle && policy.window == nil)
        policy.activity(at: 5_000)
        #expect(policy.window == Self.long)
        let inside = policy.polls(at: 5_000 + Self.long - 1)
        #expect(inside)
        let past = policy.polls(at: 5_000 + Self.long)
        #expect(!past)
        let after = policy.polls(at: 5_000 + Self.long + 1)
        #expect(policy.window == nil && !after)
    }

    @Test("long spins that keep expiring make spins short, but for every probeInterval-th")
    func expiringSpinsShorten() {
        var policy = SpinPolicy()
        var time: UInt64 = 1_000
        // A share over a fifth takes four expired spins from zero: 1/16, then 1 - (15/16)^n.
        Self.expire(3, &policy, time: &time)
        policy.activity(at: time)
        #expect(policy.window == Self.long)
        time += Self.long
        let polled = policy.polls(at: time)
        #expect(!polled)
        var windows: [UInt64] = []
        let probe = Int(SpinPolicy.probeInterval)
        for _ in 0..<(2 * probe) {
            policy.activity(at: time)
            windows.append(policy.window ?? 0)
            time += policy.window ?? 0
            let polled = policy.polls(at: time)
            #expect(!polled)
        }
        // Spins 5 to 2 * probe + 4: the long ones are spins probe and 2 * probe.
        #expect(windows.filter { $0 == Self.long }.count == 2, "\(windows)")
        #expect(windows.filter { $0 == Self.short }.count == 2 * probe - 2)
        #expect(windows[probe - 5] == Self.long && windows[2 * probe - 5] == Self.long)
    }

    @Test("short spins (none) do not move the share; long spins caught bring long spins back")
    func quickPeersReturn() {
        var policy = SpinPolicy()
        var time: UInt64 = 1_000
        Self.expire(Int(SpinPolicy.probeInterval), &policy, time: &time)
        policy.activity(at: time)
        #expect(policy.window == Self.short)
        // Quick events after no spin leave spins short (the probes apart, which are caught).
        Self.catchEvents(40, &policy, time: &time)
        policy.activity(at: time)
        #expect(policy.window == Self.short)
        // Each probe (a long spin) caught lowers the share; enough of them make spins long.
        var spinsToLong = 0
        while policy.expiredShare > SpinPolicy.threshold, spinsToLong < 1_000 {
            Self.catchEvents(1, &policy, time: &time)
            spinsToLong += 1
        }
        #expect(spinsToLong > Int(SpinPolicy.probeInterval), "only the probes are long, so it takes several of them")
        for _ in 0..<Int(SpinPolicy.probeInterval) {
            Self.catchEvents(1, &policy, time: &time)
            #expect(policy.window == Self.long)
        }
        Self.catchEvents(100, &policy, time: &time)
        policy.activity(at: time)
        #expect(policy.window == Self.long)
    }

    @Test("a busy loop, events on every poll, keeps the long window")
    func busyLoop() {
        var policy = SpinPolicy()
        var time: UInt64 = 0
        for _ in 0..<1_000 {
            policy.activity(at: time)
            #expect(policy.window == Self.long)
            time += 500
            let polled = policy.polls(at: time)
            #expect(polled)
        }
    }
}
