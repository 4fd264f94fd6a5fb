#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One pointer per thread (POSIX thread-specific data): an event loop's thread marks itself with its
/// inbox, so that work queued from that very thread can skip the wake-up a foreign thread needs.
///
/// Each thread reads only its own slot, so there is no race between threads.
package enum ThreadMarker {
    /// The key of the slot; created once per process, never deleted.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let result = pthread_key_create(&key, nil)
        precondition(result == 0, "pthread_key_create failed: \(result)")
        return key
    }()

    /// Marks the calling thread with `object` (`nil` clears the mark). The caller keeps `object` alive
    /// for as long as the mark stands.
    package static func mark(_ object: AnyObject?) {
        _ = pthread_setspecific(key, object.map { UnsafeRawPointer(Unmanaged.passUnretained($0).toOpaque()) })
    }

    /// Whether the calling thread is marked with `object`.
    package static func isMarked(with object: AnyObject) -> Bool {
        pthread_getspecific(key) == Unmanaged.passUnretained(object).toOpaque()
    }
}
