import MockServerHTTP2
import Testing
import TestSupport

/// The flood defences' counting, frame by frame, without sockets: which frames spend which budget,
/// which give a token back, and the error past a budget.
@Suite("HTTP/2 flood guard", .cpuBound)
struct HTTP2FloodGuardTests {
    static let second: UInt64 = 1_000_000_000
    static let resetError = HTTP2Error(.enhanceYourCalm, "streams reset faster than the reset budget allows (3 at once, coming back over 30.0 seconds)")

    static func emptyError(_ budget: Int, last: String) -> HTTP2Error {
        HTTP2Error(.enhanceYourCalm, "frames that carry nothing faster than the empty-frame budget allows (\(budget) at once, coming back over 30.0 seconds); the last: \(last)")
    }

    static func guardWith(resets: Int? = nil, empty: Int? = nil) -> HTTP2FloodGuard {
        HTTP2FloodGuard(HTTP2DefenceLimits(resetBudget: resets, emptyFrameBudget: empty, refill: .seconds(30), zeroWindowTimeout: nil))
    }

    /// Admits `frame` at `now` (in seconds), with streams 1 and 3 open.
    static func admit(_ frame: HTTP2Frame, _ guarded: inout HTTP2FloodGuard, at now: UInt64 = 100) -> HTTP2Error? {
        guarded.admit(frame, isOpen: { $0 == 1 || $0 == 3 }, now: { now * second })
    }

    static let frames: [(String, HTTP2Frame)] = [
        ("DATA", HTTP2Frame(streamID: 1, .data([], endStream: false))),
        ("DATA", HTTP2Frame(streamID: 1, .data([], endStream: false, padding: 10))),
        ("PRIORITY", HTTP2Frame(streamID: 5, .priority(HTTP2Priority(dependency: 0, weight: 16)))),
        ("SETTINGS", HTTP2Frame(streamID: 0, .settings([], ack: false))),
        ("SETTINGS", HTTP2Frame(streamID: 0, .settings([], ack: true))),
        ("PING", HTTP2Frame(streamID: 0, .ping(1, ack: false))),
        ("PING", HTTP2Frame(streamID: 0, .ping(1, ack: true))),
        ("WINDOW_UPDATE on a closed stream", HTTP2Frame(streamID: 7, .windowUpdate(increment: 1))),
        ("CONTINUATION", HTTP2Frame(streamID: 1, .continuation(block: [], endHeaders: false))),
        ("0x20", HTTP2Frame(streamID: 0, .unknown(HTTP2FrameType(rawValue: 0x20), flags: HTTP2FrameFlags(rawValue: 0), length: 0))),
    ]

    @Test("each frame that carries nothing spends the empty-frame budget: the budget's worth passes, the next is ENHANCE_YOUR_CALM naming it",
          arguments: frames.indices)
    func emptyFrames(index: Int) {
        let (name, frame) = Self.frames[index]
        var guarded = Self.guardWith(empty: 4)
        for _ in 0..<4 { #expect(Self.admit(frame, &guarded) == nil) }
        #expect(Self.admit(frame, &guarded) == Self.emptyError(4, last: name))
    }

    @Test("frames that carry something spend nothing: DATA with bytes or END_STREAM, HEADERS, WINDOW_UPDATE on the connection or an open stream, a CONTINUATION with bytes or END_HEADERS, GOAWAY")
    func usefulFrames() {
        let useful = [
            HTTP2Frame(streamID: 1, .data([1], endStream: false)),
            HTTP2Frame(streamID: 1, .data([], endStream: true)),
            HTTP2Frame(streamID: 5, .headers(block: [0x82], endStream: true, endHeaders: true)),
            HTTP2Frame(streamID: 0, .windowUpdate(increment: 1)),
            HTTP2Frame(streamID: 3, .windowUpdate(increment: 1)),
            HTTP2Frame(streamID: 1, .continuation(block: [0x82], endHeaders: false)),
            HTTP2Frame(streamID: 1, .continuation(block: [], endHeaders: true)),
            HTTP2Frame(streamID: 0, .goAway(lastStreamID: 0, code: .noError, debugData: [])),
        ]
        var guarded = Self.guardWith(resets: 1, empty: 1)
        for _ in 0..<1_000 {
            for frame in useful { #expect(Self.admit(frame, &guarded) == nil) }
        }
        // Both budgets are still whole.
        #expect(Self.admit(HTTP2Frame(streamID: 0, .ping(1, ack: false)), &guarded) == nil)
        #expect(Self.admit(HTTP2Frame(streamID: 1, .rstStream(.cancel)), &guarded) == nil)
    }

    @Test("RST_STREAM spends the reset budget only: three pass, the fourth is ENHANCE_YOUR_CALM; the empty-frame budget is untouched")
    func resets() {
        var guarded = Self.guardWith(resets: 3, empty: 1)
        for id in [1, 3, 5] as [UInt32] { #expect(Self.admit(HTTP2Frame(streamID: id, .rstStream(.cancel)), &guarded) == nil) }
        #expect(Self.admit(HTTP2Frame(streamID: 7, .rstStream(.cancel)), &guarded) == Self.resetError)
        #expect(Self.admit(HTTP2Frame(streamID: 0, .ping(1, ack: false)), &guarded) == nil)
    }

    @Test("a request or a DATA frame with bytes gives an empty-frame token back; a reset is given back by time only")
    func refunds() {
        var guarded = Self.guardWith(resets: 3, empty: 2)
        let ping = HTTP2Frame(streamID: 0, .ping(1, ack: false))
        #expect(Self.admit(ping, &guarded) == nil)
        #expect(Self.admit(ping, &guarded) == nil)
        #expect(Self.admit(HTTP2Frame(streamID: 9, .headers(block: [0x82], endStream: true, endHeaders: true)), &guarded) == nil)
        #expect(Self.admit(ping, &guarded) == nil)
        #expect(Self.admit(HTTP2Frame(streamID: 1, .data([1, 2], endStream: false)), &guarded) == nil)
        #expect(Self.admit(ping, &guarded) == nil)
        #expect(Self.admit(ping, &guarded) == Self.emptyError(2, last: "PING"))

        // Requests give no reset back: a rapid reset (HEADERS, then RST_STREAM, again and again) is cut.
        var rapid = Self.guardWith(resets: 3, empty: 10)
        var cut: Int?
        for id in stride(from: 1 as UInt32, to: 41, by: 2) {
            _ = Self.admit(HTTP2Frame(streamID: id, .headers(block: [0x82], endStream: true, endHeaders: true)), &rapid)
            if Self.admit(HTTP2Frame(streamID: id, .rstStream(.cancel)), &rapid) != nil {
                cut = Int(id)
                break
            }
        }
        #expect(cut == 7)
    }

    @Test("time gives tokens back: 3 over 30 s is one every 10 s")
    func time() {
        var guarded = Self.guardWith(resets: 3)
        let reset = HTTP2Frame(streamID: 1, .rstStream(.cancel))
        for _ in 0..<3 { #expect(Self.admit(reset, &guarded, at: 100) == nil) }
        #expect(Self.admit(reset, &guarded, at: 109) != nil)
        #expect(Self.admit(reset, &guarded, at: 110) == nil)
        #expect(Self.admit(reset, &guarded, at: 110) != nil)
        for _ in 0..<3 { #expect(Self.admit(reset, &guarded, at: 200) == nil) }
        #expect(Self.admit(reset, &guarded, at: 200) != nil)
    }

    @Test("a well-behaved long-lived connection is never cut by the defaults: a PING every 5 s and a PRIORITY with each request for a day")
    func longLived() {
        var guarded = HTTP2FloodGuard(.standard)
        var seconds: UInt64 = 0
        var stream: UInt32 = 1
        while seconds < 86_400 {
            #expect(Self.admit(HTTP2Frame(streamID: 0, .ping(seconds, ack: false)), &guarded, at: seconds) == nil)
            #expect(Self.admit(HTTP2Frame(streamID: stream, .headers(block: [0x82], endStream: true, endHeaders: true)), &guarded, at: seconds) == nil)
            #expect(Self.admit(HTTP2Frame(streamID: stream, .priority(HTTP2Priority(dependency: 0, weight: 16))), &guarded, at: seconds) == nil)
            #expect(Self.admit(HTTP2Frame(streamID: stream, .windowUpdate(increment: 100)), &guarded, at: seconds) == nil)
            seconds += 5
            stream += 2
        }
    }

    @Test("the standard budgets: 1,000 resets and 10,000 frames that carry nothing at once")
    func standard() {
        var guarded = HTTP2FloodGuard(.standard)
        let reset = HTTP2Frame(streamID: 1, .rstStream(.cancel))
        for _ in 0..<1_000 { #expect(Self.admit(reset, &guarded) == nil) }
        #expect(Self.admit(reset, &guarded)?.code == .enhanceYourCalm)
        let priority = HTTP2Frame(streamID: 1, .priority(HTTP2Priority(dependency: 0, weight: 16)))
        var passed = 0
        while Self.admit(priority, &guarded) == nil { passed += 1 }
        #expect(passed == 10_000)
    }

    @Test("a stream error this side answers spends the empty-frame budget; with every defence off nothing is counted")
    func streamErrorsAndOff() {
        var guarded = Self.guardWith(empty: 2)
        #expect(guarded.admitStreamError(now: { 0 }) == nil)
        #expect(guarded.admitStreamError(now: { 0 }) == nil)
        #expect(guarded.admitStreamError(now: { 0 }) == Self.emptyError(2, last: "frame answered with RST_STREAM"))
        var off = HTTP2FloodGuard(.off)
        var clockRead = false
        for _ in 0..<10_000 {
            for (_, frame) in Self.frames { #expect(off.admit(frame, isOpen: { _ in Issue.record("asked"); return false }, now: { clockRead = true; return 0 }) == nil) }
            #expect(off.admit(HTTP2Frame(streamID: 1, .rstStream(.cancel)), isOpen: { _ in false }, now: { clockRead = true; return 0 }) == nil)
            #expect(off.admitStreamError(now: { clockRead = true; return 0 }) == nil)
        }
        #expect(!clockRead)
    }
}
