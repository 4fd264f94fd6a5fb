/// Work handed to an event loop: from other threads it is queued and the loop is woken to run it;
/// from the loop's own thread (an `async` answer running there, say) it is queued without a wake-up
/// and runs before the loop next waits.
package final class LoopInbox: Sendable {
    private let tasks = Locked<[@Sendable (EventLoop) -> Void]>([])
    private let selector: Selector
    /// Work queued from the loop's own thread.
    ///
    /// `nonisolated(unsafe)`: only the thread marked with this inbox (``ThreadMarker``), the loop's
    /// thread, reads or writes it; every other thread takes the locked path in ``execute(_:)``.
    nonisolated(unsafe) private var local: [@Sendable (EventLoop) -> Void] = []
    /// The batch ``runLocal(on:)`` is running; swapped with ``local`` so that neither reallocates.
    ///
    /// `nonisolated(unsafe)`: as ``local``, the loop's thread alone touches it.
    nonisolated(unsafe) private var running: [@Sendable (EventLoop) -> Void] = []

    package init(selector: Selector) {
        self.selector = selector
    }

    /// Queues `task` to run on the loop's thread, waking the loop when called from another thread.
    package func execute(_ task: @escaping @Sendable (EventLoop) -> Void) {
        if ThreadMarker.isMarked(with: self) {
            local.append(task)
            return
        }
        tasks.withLock { $0.append(task) }
        selector.wakeUp()
    }

    /// Marks the calling thread as the loop's (`true`) or clears the mark (`false`).
    package func claimThread(_ claim: Bool) {
        ThreadMarker.mark(claim ? self : nil)
    }

    /// Takes every task queued from other threads.
    package func drain() -> [@Sendable (EventLoop) -> Void] {
        tasks.withLock { tasks in
            defer { tasks.removeAll() }
            return tasks
        }
    }

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
