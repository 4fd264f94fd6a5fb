/// Work handed to an event loop: from other threads it is queued and the loop is woken to run it;
/// from the loop's own thread (an `async` answer running there, say) it is queued without a wake-up
/// and runs before the loop next waits.
package final class LoopInbox: Sendable {
    /// Tasks queued from other threads, and whether the loop has ended (``close()``).
    private let tasks = Locked<(queued: [@Sendable (EventLoop) -> Void], closed: Bool)>(([], false))
    private let selector: IOSelector
    /// Work queued from the loop's own thread: only the thread marked with this inbox
    /// (``ThreadMarker``), the loop's thread, reads or writes it; every other thread takes the
    /// locked path in ``execute(_:)``.
    /// Kept: holds the loop thread's own queue, which the thread marker (not a lock, nor the
    /// compiler) keeps to that thread.
    nonisolated(unsafe) private var local: [@Sendable (EventLoop) -> Void] = []
    /// The batch ``runLocal(on:)`` is running; swapped with ``local`` so that neither reallocates.
    /// Kept: holds what the loop's thread alone touches, as ``local`` does.
    nonisolated(unsafe) private var running: [@Sendable (EventLoop) -> Void] = []

    package init(selector: IOSelector) {
        self.selector = selector
    }

    /// Queues `task` to run on the loop's thread, waking the loop when called from another thread.
    ///
    /// - Returns: `false` when the loop has ended and `task` will never run (a caller waiting for
    ///   its answer must not wait); a task queued before the end runs, with the loop no longer
    ///   ``EventLoop/isRunning``.
    @discardableResult
    package func execute(_ task: @escaping @Sendable (EventLoop) -> Void) -> Bool {
        if ThreadMarker.isMarked(with: self) {
            local.append(task)
            return true
        }
        let queued = tasks.withLock { state in
            guard !state.closed else { return false }
            state.queued.append(task)
            return true
        }
        if queued { selector.wakeUp() }
        return queued
    }

    /// Ends the inbox as its loop stops: tasks queued from now on are refused; those already
    /// queued are returned, for the loop to run a last time.
    package func close() -> [@Sendable (EventLoop) -> Void] {
        tasks.withLock { state in
            state.closed = true
            defer { state.queued.removeAll() }
            return state.queued
        }
    }

    /// Marks the calling thread as the loop's (`true`) or clears the mark (`false`).
    package func claimThread(_ claim: Bool) {
        ThreadMarker.mark(claim ? self : nil)
    }

    /// Takes every task queued from other threads.
    package func drain() -> [@Sendable (EventLoop) -> Void] {
        tasks.withLock { state in
            defer { state.queued.removeAll() }
            return state.queued
        }
    }

    /// Whether tasks queued from the loop's own thread wait to run; on the loop's thread only.
    package var hasLocalWork: Bool { !local.isEmpty }

    /// Runs the tasks queued from the loop's own thread, including those they queue in turn; on the
    /// loop's thread only.
    package func runLocal(on loop: EventLoop) {
        while !local.isEmpty {
            swap(&local, &running)
            for task in running { task(loop) }
            running.removeAll(keepingCapacity: true)
        }
    }
}
