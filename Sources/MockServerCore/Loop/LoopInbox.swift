/// Work handed to an event loop from other threads: queued, and the loop woken to run it when it
/// is asleep.
///
/// The loop says when it is about to block (``prepareToSleep()``); a task queued then wakes it
/// through the selector. A task queued while the loop is running (or polling without blocking, as
/// it does right after activity) costs no system call: the loop runs it on its next turn.
package final class LoopInbox: Sendable {
    private struct State {
        var tasks: [@Sendable (EventLoop) -> Void] = []
        /// The loop blocks, or is about to, in the selector until woken.
        var sleeping = false
    }

    private let state = Locked(State())
    private let selector: Selector

    package init(selector: Selector) {
        self.selector = selector
    }

    /// Queues `task` to run on the loop's thread, waking the loop when it sleeps.
    package func execute(_ task: @escaping @Sendable (EventLoop) -> Void) {
        let wake = state.withLock { state in
            state.tasks.append(task)
            defer { state.sleeping = false }
            return state.sleeping
        }
        if wake { selector.wakeUp() }
    }

    /// Called by the loop before it blocks: `false` when tasks are waiting (so it must not block);
    /// otherwise the next ``execute(_:)`` wakes it.
    package func prepareToSleep() -> Bool {
        state.withLock { state in
            guard state.tasks.isEmpty else { return false }
            state.sleeping = true
            return true
        }
    }

    /// Called by the loop when its wait has returned.
    package func awake() {
        state.withLock { $0.sleeping = false }
    }

    /// Takes every queued task, in order.
    package func drain() -> [@Sendable (EventLoop) -> Void] {
        state.withLock { state in
            defer { state.tasks.removeAll() }
            return state.tasks
        }
    }
}
