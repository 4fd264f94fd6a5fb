#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the test process holds (descriptors, threads) and the limits it runs under, read with libc
/// on both systems: `/proc` on Linux, `proc_pidinfo` on Darwin.
public enum ProcessResources {
    /// The number of descriptors open in this process, or `nil` when the system cannot tell.
    public static func openDescriptorCount() -> Int? {
        #if os(Linux)
        guard let directory = opendir("/proc/self/fd") else { return nil }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let isDot = withUnsafeBytes(of: entry.pointee.d_name) { $0.first == UInt8(ascii: ".") }
            if !isDot { count += 1 }
        }
        return count - 1 // the directory's own descriptor
        #else
        let size = proc_pidinfo(getpid(), PROC_PIDLISTFDS, 0, nil, 0)
        guard size > 0 else { return nil }
        return Int(size) / MemoryLayout<proc_fdinfo>.stride
        #endif
    }

    /// The number of threads in this process, or `nil` when the system cannot tell.
    public static func threadCount() -> Int? {
        #if os(Linux)
        guard let file = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(cString: line)
            if text.hasPrefix("Threads:") { return Int(text.dropFirst("Threads:".count).filter { $0.isNumber }) }
        }
        return nil
        #else
        var info = proc_taskinfo()
        let size = Int32(MemoryLayout<proc_taskinfo>.size)
        guard proc_pidinfo(getpid(), PROC_PIDTASKINFO, 0, &info, size) == size else { return nil }
        return Int(info.pti_threadnum)
        #endif
    }

    /// Raises the soft limit on open descriptors to at least `count` (within the hard limit), and
    /// returns the limit in force.
    @discardableResult
    public static func raiseDescriptorLimit(to count: Int) -> Int {
        var limits = rlimit()
        #if canImport(Glibc)
        let resource = Int32(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limits) == 0 else { return 0 }
        if limits.rlim_cur < rlim_t(count) {
            limits.rlim_cur = min(limits.rlim_max, rlim_t(count))
            _ = setrlimit(resource, &limits)
        }
        return Int(limits.rlim_cur)
    }

    /// Ignores SIGPIPE, so that writing to a child that has exited fails instead of killing the tests.
    public static func ignoreBrokenPipes() {
        _ = signal(SIGPIPE, SIG_IGN)
    }
}
