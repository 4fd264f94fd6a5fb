/// Work handed to an event loop from other threads: queued, then the loop is woken to run it.
package final class LoopInbox: Sendable {
    private let tasks = Locked<[@Sendable (EventLoop) -> Void]>([])
    private let selector: Selector

    package init(selector: Selector) {
        self.selector = selector
    }

    /// Queues `task` to run on the loop's thread and wakes the loop.
    package func execute(_ task: @escaping @Sendable (EventLoop) -> Void) {
        tasks.withLock { $0.append(task) }
        selector.wakeUp()
    }

    /// Takes every queued task.
    package func drain() -> [@Sendable (EventLoop) -> Void] {
        tasks.withLock { tasks in
            defer { tasks.removeAll() }
            return tasks
        }
    }
}
