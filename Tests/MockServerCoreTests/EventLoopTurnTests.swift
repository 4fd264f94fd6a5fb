@_spi(HotPath) import MockServerCore
import Testing
import TestSupport

/// What one turn of ``EventLoop/run()`` runs before it waits again: work queued from the loop's own
/// thread (``LoopInbox/execute(_:)`` there queues without a wake-up) must not wait for the next event.
@Suite("Event loop turns", .offPool)
struct EventLoopTurnTests {
    @Test("work an end-of-turn action queues from the loop's thread runs before the loop waits, not at its next event")
    func endOfTurnWorkRunsAtOnce() throws {
        let selector = try IOSelector.make()
        let loop = EventLoop(selector: selector, inbox: LoopInbox(selector: selector), environment: ServerEnvironment(transcript: Transcript(), logger: .disabled))
        // Which ran first: the work the end of the turn queued, or a watchdog 10 s later (the only
        // event left: without it, a loop that waits before running the work would wait forever).
        let first = Locked<String?>(nil)
        loop.schedule(after: .seconds(10)) {
            first.withLock { $0 = $0 ?? "the watchdog" }
            loop.stop()
        }
        // Queued from this thread (not the loop's): it wakes the loop, whose first turn runs it.
        loop.inbox.execute { loop in
            loop.atEndOfTurn {
                // On the loop's thread, at the end of its turn (a TLS flush that drives a connection
                // into an answer whose task hops back to the loop, say).
                loop.inbox.execute { loop in
                    first.withLock { $0 = $0 ?? "the queued work" }
                    loop.stop()
                }
            }
        }
        loop.run()
        #expect(first.withLock { $0 } == "the queued work")
    }
}
