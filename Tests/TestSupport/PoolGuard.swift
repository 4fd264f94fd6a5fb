import Foundation
import Testing

/// Fails a test that blocks a thread of Swift's cooperative pool: the test helpers that wait (a
/// ``TestClient`` read, ``Tools/run(_:_:timeout:input:environment:directory:)`` and the curl and
/// Python runs built on it, a ``ChildProcess`` waited for, a ``RunningCommand`` or ``PythonServer``
/// line) call ``check(_:sourceLocation:)`` first.
///
/// On Linux that pool has one thread per core (two here) and adds none for a thread that blocks.
/// A test that waits there for a client talking to a mock whose answer needs the pool (a stub
/// closure that awaits an actor, a WebSocket handler) deadlocks with every other such test until a
/// timeout breaks it: a full run once stalled every test of the process for 60 s (curl and Python
/// runs time out after 60 s), and a pipelined request's answer, which awaits an actor, timed out.
/// The fix is always the same: give the suite (or the test) the `.offPool` trait, or wrap the
/// blocking part in ``offPool(_:)``.
public enum PoolGuard {
    /// Records an issue at the caller's test when the calling thread runs a task on Swift's
    /// cooperative pool: a task with no task executor preference. A thread of its own
    /// (``offPool(_:)``, ``BackgroundRun``) runs no task, and `.offPool` tests prefer
    /// ``TestThreadPool``; both pass.
    ///
    /// - Parameter call: what blocks, for the message (`"TestClient.readLine"`).
    public static func check(_ call: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard isOnCooperativePool else { return }
        let message = "\(call()) blocks a thread of Swift's cooperative pool (\(ProcessInfo.processInfo.activeProcessorCount) threads here), "
            + "which the mock's asynchronous answers and every other test need: give the suite or the test the .offPool trait, "
            + "or wrap the blocking part in offPool { }"
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }

    /// Whether the calling thread runs a task that runs on Swift's global concurrent executor.
    public static var isOnCooperativePool: Bool {
        withUnsafeCurrentTask { task in
            guard let task else { return false }
            if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
                return task.unownedTaskExecutor == nil
            }
            return false
        }
    }
}
