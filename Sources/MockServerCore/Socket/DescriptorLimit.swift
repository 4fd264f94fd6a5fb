#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's limit on open descriptors (`RLIMIT_NOFILE`), which bounds how many connections a
/// server can hold: every connection is a descriptor.
package enum DescriptorLimit {
    /// Raises the soft limit to the hard one (on Darwin at most `OPEN_MAX`, which `setrlimit`
    /// refuses to exceed), as servers built for load do: the soft default is 1,024 on Linux and 256
    /// on macOS. Returns the soft limit in force afterwards, or `nil` when it cannot be read.
    @discardableResult
    package static func raiseToHardLimit() -> Int? {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return nil }
        var target = limit.rlim_max
        #if canImport(Darwin)
        target = min(target, rlim_t(OPEN_MAX))
        #endif
        if limit.rlim_cur < target {
            var raised = limit
            raised.rlim_cur = target
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }

    #if canImport(Glibc)
    private static let resource = Int32(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif
}
