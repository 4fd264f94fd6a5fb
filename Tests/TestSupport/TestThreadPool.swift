import Foundation

/// A task executor with threads of its own, for tests that block: a test body that waits for curl,
/// Python or a socket read holds one of these threads instead of one of Swift's cooperative pool.
///
/// On Linux that pool has exactly as many threads as cores and never adds one for a thread that
/// blocks, so on a two-core machine two tests waiting for external clients stop every other task
/// of the process (a full suite run measured an `await` resumed 28 s late). Tests given the
/// `.offPool` trait run here; their number at once is bounded (``limit``), so that the
/// clients they start do not swamp the machine either.
///
/// `@unchecked Sendable`: `jobs`, `next`, `idle` and `threads` are read and written only under `condition`.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
public final class TestThreadPool: TaskExecutor, @unchecked Sendable {
    /// The pool the `.offPool` trait runs tests on.
    public static let shared = TestThreadPool(limit: 6)

    /// The pool the `.cpuBound` trait runs tests on: one thread per core, so that the tests that
    /// compute for seconds share the processors with the rest through the system's scheduler
    /// (milliseconds) instead of queueing every `await` of the process behind them on the
    /// cooperative pool (seconds: see ``ThreadPoolTrait``).
    public static let compute = TestThreadPool(limit: max(1, ProcessInfo.processInfo.activeProcessorCount))

    /// The most threads the pool makes; jobs beyond them wait their turn.
    public let limit: Int
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var next = 0
    private var idle = 0
    private var threads = 0

    /// A pool that makes threads as jobs need them, at most `limit`, and keeps them.
    public init(limit: Int) {
        precondition(limit > 0, "a thread pool needs at least one thread")
        self.limit = limit
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        let spawn = jobs.count - next > idle && threads < limit
        if spawn { threads += 1 }
        condition.signal()
        condition.unlock()
        if spawn {
            let thread = Thread { [self] in work() }
            thread.name = "TestThreadPool"
            thread.start()
        }
    }

    /// A thread's life: the next job, run, for ever.
    private func work() {
        let executor = asUnownedTaskExecutor()
        while true {
            condition.lock()
            while next == jobs.count {
                idle += 1
                condition.wait()
                idle -= 1
            }
            let job = jobs[next]
            next += 1
            if next == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                next = 0
            }
            condition.unlock()
            job.runSynchronously(on: executor)
        }
    }
}
