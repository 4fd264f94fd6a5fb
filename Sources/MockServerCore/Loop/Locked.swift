/// A value guarded by a lock, shared between the event-loop thread and the test's threads.
///
/// A copy shares the value and the lock with the original (the storage is a class), so it is
/// passed around and captured like a reference.
///
/// `@unchecked Sendable`: the compiler cannot see that the value is only read or written inside
/// `withLock`, which holds the mutex for the whole access, so no two threads touch it at once.
package struct Locked<Value>: @unchecked Sendable {
    private let storage: MutexStorage<Value>

    package init(_ value: Value) {
        storage = MutexStorage.make(value)
    }

    /// Runs `body` with exclusive access to the value.
    @inline(__always)
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withLock(body)
    }
}
