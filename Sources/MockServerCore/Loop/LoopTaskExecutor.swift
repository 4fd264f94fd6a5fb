/// Runs a task's jobs on an event loop's thread, through its inbox (which wakes the loop): an HTTP responder's `async`
/// answer then runs on the loop (until it awaits something that runs elsewhere, such as an actor),
/// with no thread hop and no dependence on Swift's cooperative pool, which a test that blocks in
/// synchronous reads or waits for a child process can exhaust.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
package final class LoopTaskExecutor: TaskExecutor {
    private let inbox: LoopInbox

    package init(inbox: LoopInbox) {
        self.inbox = inbox
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        inbox.execute { _ in job.runSynchronously(on: executor) }
    }
}
