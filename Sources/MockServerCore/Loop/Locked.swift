import Foundation

/// A value guarded by a lock, shared between the event-loop thread and the test's threads.
///
/// `@unchecked Sendable`: the compiler cannot see that `value` is only read or written inside
/// `withLock`, which holds `lock` for the whole access, so no two threads touch it at once.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    @inline(__always)
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
