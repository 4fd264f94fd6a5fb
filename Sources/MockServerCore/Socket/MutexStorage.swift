#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value and the `pthread` mutex that guards it, in one allocation: the storage of ``Locked``.
///
/// Foundation's `NSLock` costs two more allocations and a class's set-up and tear-down for each
/// lock, which shows where a lock lives no longer than one request (the in-process path makes
/// several per request). The mutex sits in the buffer's element storage, whose address is stable,
/// as a `pthread_mutex_t` must not move once initialised.
///
/// **`@_spi(HotPath)`** marks Core's generic code that other modules call on a per-request path
/// and must get specialised. With Swift 6.3 an `@inlinable package` member has no body in the
/// emitted module, so a caller in another module runs the unspecialised generic (for a lock:
/// metadata look-ups and value-witness copies of the value, about 450 instructions a call). An
/// `@_spi(HotPath) public` `@inlinable` member does carry its body: a caller writes
/// `@_spi(HotPath) import MockServerCore` and holds a ``Locked``, whose `withLock` is this one's,
/// inlined. SPI declarations are not public API: they are not counted among the public types nor
/// listed in Docs/Layout.md.
@_spi(HotPath) public final class MutexStorage<Value>: ManagedBuffer<Value, pthread_mutex_t> {
    /// A new storage holding `value`, its mutex initialised.
    public static func make(_ value: Value) -> MutexStorage<Value> {
        let storage = unsafeDowncast(create(minimumCapacity: 1) { _ in value }, to: MutexStorage<Value>.self)
        storage.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            let status = pthread_mutex_init(mutex, nil)
            precondition(status == 0, "pthread_mutex_init failed: \(status)")
        }
        return storage
    }

    deinit {
        withUnsafeMutablePointerToElements { mutex in
            _ = pthread_mutex_destroy(mutex)
            mutex.deinitialize(count: 1)
        }
    }

    /// Runs `body` with the mutex held and exclusive access to the value.
    @inlinable
    @inline(__always)
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try withUnsafeMutablePointers { value, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value.pointee)
        }
    }
}
