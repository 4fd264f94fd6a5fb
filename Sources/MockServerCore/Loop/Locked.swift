/// A value guarded by a lock, shared between the event-loop thread and the test's threads.
///
/// A copy shares the value and the lock with the original (the storage is a class), so it is
/// passed around and captured like a reference.
///
/// `@_spi(HotPath) public` with an `@inlinable` ``withLock(_:)`` (see ``MutexStorage``): a class in
/// another module that takes a lock on every request holds a `Locked` and gets the specialised,
/// inlined lock, where it held the storage itself, marked `nonisolated(unsafe)`, until session 28.
///
/// Kept: holds a lock, in a `ManagedBuffer` (which cannot be `Sendable`); the value is only read
/// or written inside `withLock`, under the mutex.
@_spi(HotPath) public struct Locked<Value>: @unchecked Sendable {
    @usableFromInline let storage: MutexStorage<Value>

    /// A new lock holding `value`.
    public init(_ value: Value) {
        storage = MutexStorage.make(value)
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable
    @inline(__always)
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withLock(body)
    }
}
