#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one place where system calls are retried on `EINTR`.
package enum Syscall {
    /// Runs `body` until it does not fail with `EINTR` and returns its result.
    @inline(__always)
    package static func retrying<T: BinaryInteger>(_ body: () -> T) -> T {
        while true {
            let result = body()
            if result < 0 && errno == EINTR { continue }
            return result
        }
    }
}
