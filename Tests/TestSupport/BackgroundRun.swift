import Foundation
import Testing

/// A program run on a thread of its own from the moment it is made, whose result a test awaits
/// later: unlike an `async let`, it does not wait for a cooperative thread to start, which a test
/// that blocks the pool (a synchronous curl, say) could hold up for as long as it blocks.
///
/// `@unchecked Sendable`: `result` and `waiter` are read and written only under `lock`.
public final class BackgroundRun: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<Tools.Result, any Error>?
    private var waiter: CheckedContinuation<Tools.Result, any Error>?

    /// Starts `body` now, on a new thread.
    public init(_ body: @escaping @Sendable () throws -> Tools.Result) {
        Thread { [self] in
            let outcome = Result { try body() }
            lock.lock()
            if let waiter {
                self.waiter = nil
                lock.unlock()
                waiter.resume(with: outcome)
            } else {
                result = outcome
                lock.unlock()
            }
        }.start()
    }

    /// Starts a Python program given as text.
    public static func python(_ source: String, timeout: TimeInterval = 40) -> BackgroundRun {
        BackgroundRun { try Tools.python(source, timeout: timeout) }
    }

    /// The program's result, once it has ended.
    public func value() async throws -> Tools.Result {
        try await withCheckedThrowingContinuation { continuation in
            lock.lock()
            if let result {
                lock.unlock()
                continuation.resume(with: result)
            } else {
                waiter = continuation
                lock.unlock()
            }
        }
    }
}
