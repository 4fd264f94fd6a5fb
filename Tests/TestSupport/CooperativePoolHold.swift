import Foundation

/// Keeps the threads of Swift's cooperative pool busy until ``release()``: for a test that shows a
/// server answers without that pool, as it must when the rest of the process (tests that block in
/// reads or wait for child processes, hundreds of test tasks queued at once in a full run) keeps
/// the pool busy for many seconds.
///
/// On Linux the pool has one thread per core (`activeProcessorCount`) and adds none for a thread
/// that blocks, so one blocked task per core holds all of it. Hold it briefly, from a test that
/// runs off the pool (`.offPool`): every other task of the process waits meanwhile.
///
/// `@unchecked Sendable`: `started` and `released` are read and written only under `condition`.
public final class CooperativePoolHold: @unchecked Sendable {
    private let condition = NSCondition()
    private var started = 0
    private var released = false
    /// How many threads the hold takes: the pool's width on Linux.
    public let width = ProcessInfo.processInfo.activeProcessorCount

    /// Starts one blocking task per thread of the pool and waits until they all run, or for
    /// `timeout` at most: a pool that other tasks keep busy that long is busy anyway (a full run's
    /// often is, for 15 s and more), and those of the hold that start later end at once after
    /// ``release()``. Kept short because the threads held meanwhile are lost to the other tests.
    public init(timeout: TimeInterval = 5) {
        for _ in 0..<width {
            Task.detached { [self] in block() }
        }
        condition.lock()
        let deadline = Date(timeIntervalSinceNow: timeout)
        while started < width, condition.wait(until: deadline) {}
        condition.unlock()
    }

    /// Lets the blocked tasks end (and any that start later return at once).
    public func release() {
        condition.lock()
        released = true
        condition.broadcast()
        condition.unlock()
    }

    /// One task's part: counted as started, then blocked until ``release()``.
    private func block() {
        condition.lock()
        started += 1
        condition.broadcast()
        while !released { condition.wait() }
        condition.unlock()
    }
}
