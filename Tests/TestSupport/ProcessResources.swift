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
        // Only the name's first byte is read: copying `d_name` (256 bytes, where an entry here is 24)
        // can read past the end of readdir's buffer, the bug of Foundation's Process (README, Platforms).
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 19
        while let entry = readdir(directory) {
            let isDot = UnsafeRawPointer(entry).load(fromByteOffset: nameOffset, as: UInt8.self) == UInt8(ascii: ".")
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
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
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

    // No way to raise the descriptor limit here, on purpose: a test that needs over 1,000
    // descriptors runs its server and clients in child processes (mockserver raises its own limit),
    // since Foundation's Process misbehaves in a process with descriptors above 1,024 (CFSocket's
    // select(2)) and can crash above about 1,350 (README, Platforms). Tests start programs with
    // ChildProcess, but README's snippets and URLSession's libcurl share this process.

    /// Whether this process runs under AddressSanitizer or ThreadSanitizer (`swift test
    /// --sanitize=…`, which builds the `mockserver` executable the same way): their runtimes export
    /// `__asan_init` and `__tsan_init`. Memory figures mean little then: every byte has shadow
    /// memory, and ASan's allocator holds freed memory back for a while.
    public static let runsUnderSanitizer: Bool = {
        guard let process = dlopen(nil, RTLD_LAZY) else { return false }
        return dlsym(process, "__asan_init") != nil || dlsym(process, "__tsan_init") != nil
    }()

    /// This process's ID.
    public static var processID: Int32 { getpid() }

    /// Whether a process with this ID exists (another user's counts: signalling it is refused, not
    /// unknown).
    public static func processExists(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno != ESRCH
    }

    /// Runs `body` when the process exits normally (`atexit(3)`).
    public static func atExit(_ body: @escaping @convention(c) () -> Void) {
        _ = atexit(body)
    }

    /// Ignores SIGPIPE, so that writing to a child that has exited fails instead of killing the tests.
    public static func ignoreBrokenPipes() {
        _ = signal(SIGPIPE, SIG_IGN)
    }
}
