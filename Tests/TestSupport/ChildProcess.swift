#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A program run by a test, started with `posix_spawn` and waited for with `waitpid`: what
/// Foundation's `Process` does, without its run-loop source, whose `select(2)` fails once the test
/// process holds more than 1,024 descriptors (it crashed or hung the suite). Standard input,
/// output and error are pipes (input optional); the child starts with no signal blocked and
/// SIGPIPE and SIGTERM at their defaults, whatever the test thread had.
public final class ChildProcess: @unchecked Sendable {
    // @unchecked: `status` is guarded by `lock`; the descriptors and pid do not change after `init`.
    /// The child's process ID.
    public let pid: pid_t
    /// The read end of the child's standard output.
    public let output: Int32
    /// The read end of the child's standard error (-1 when it goes to /dev/null).
    public let errors: Int32
    /// The write end of the child's standard input, when asked for (else it reads /dev/null).
    public private(set) var input: Int32?
    private var status: Int32?
    private var lock = pthread_mutex_t()

    /// Why a program could not be started.
    public struct SpawnError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts `executable` (a path, or a name looked up in PATH) with `arguments`.
    ///
    /// - Parameters:
    ///   - environment: variables added to (or replacing) this process's.
    ///   - directory: the working directory, when not this process's.
    ///   - withInput: whether the child's standard input is a pipe (``input``) instead of /dev/null.
    ///   - discardingErrors: whether standard error goes to /dev/null (a server nobody reads, which
    ///     would otherwise block once the pipe is full).
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:], directory: String? = nil,
                withInput: Bool = false, discardingErrors: Bool = false) throws {
        pthread_mutex_init(&lock, nil)
        var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1], inPipe: [Int32] = [-1, -1]
        guard Self.makePipe(&outPipe), discardingErrors || Self.makePipe(&errPipe), !withInput || Self.makePipe(&inPipe) else {
            for fd in outPipe + errPipe + inPipe where fd >= 0 { close(fd) }
            throw SpawnError(description: "pipe: \(String(cString: strerror(errno)))")
        }
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if withInput {
            posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        if discardingErrors {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        } else {
            posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        }

        #if !canImport(Darwin)
        // Last of the file actions: the dup2s above have put the pipes in 0, 1 and 2 already.
        // The child keeps no descriptor of this process but its three: the test process's sockets
        // and pipes (other tests' clients, libcurl's, another child's pipe) would otherwise live on in
        // every program a test starts, a long-lived Dovecot's helpers among them, so that a peer never
        // saw their close and a pipe never its end (an FTP download and an offlineimap run hung so).
        // Darwin gets the same from POSIX_SPAWN_CLOEXEC_DEFAULT below.
        // glibc 2.34's posix_spawn_file_actions_addclosefrom_np, which its headers declare only for
        // _GNU_SOURCE: looked up by name, and skipped where the C library has none.
        if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
            typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
        }
        #endif

        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        sigaddset(&defaults, SIGTERM)
        sigaddset(&defaults, SIGINT)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        #if canImport(Darwin)
        flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #endif
        posix_spawnattr_setflags(&attributes, Int16(flags))

        var variables: [String: String] = [:]
        #if canImport(Darwin)
        guard var entry = _NSGetEnviron().pointee else { throw SpawnError(description: "no environment") }
        #else
        var entry = environ
        #endif
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") { variables[String(text[..<equals])] = String(text[text.index(after: equals)...]) }
            entry += 1
        }
        for (name, value) in environment { variables[name] = value }
        var path = executable.contains("/") ? executable : Self.lookUp(executable, in: variables["PATH"] ?? "/usr/bin:/bin") ?? executable
        var arguments = arguments
        if let directory {
            // posix_spawn's chdir action is not in every libc's headers: the shell changes directory.
            arguments = ["-c", "cd \"$0\" && exec \"$@\"", directory, path] + arguments
            path = "/bin/sh"
        }

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var child = pid_t()
        let result = posix_spawn(&child, path, &actions, &attributes, argv, envp)
        close(outPipe[1])
        if !discardingErrors { close(errPipe[1]) }
        if withInput { close(inPipe[0]) }
        guard result == 0 else {
            close(outPipe[0])
            if !discardingErrors { close(errPipe[0]) }
            if withInput { close(inPipe[1]) }
            throw SpawnError(description: "cannot run \(path): \(String(cString: strerror(result)))")
        }
        pid = child
        output = outPipe[0]
        errors = errPipe[0]
        input = withInput ? inPipe[1] : nil
    }

    deinit {
        if waitedStatus() == nil {
            kill(pid, SIGKILL)
            _ = wait()
        }
        close(output)
        if errors >= 0 { close(errors) }
        closeInput()
        pthread_mutex_destroy(&lock)
    }

    /// Closes the child's standard input (its end of file).
    public func closeInput() {
        if let input {
            close(input)
            self.input = nil
        }
    }

    /// Sends `signal` to the child, unless it has been waited for.
    public func send(_ signal: Int32) {
        if waitedStatus() == nil { kill(pid, signal) }
    }

    /// Whether the child has not exited yet (it is reaped if it has).
    public var isRunning: Bool {
        if waitedStatus() != nil { return false }
        var raw: Int32 = 0
        let result = waitpid(pid, &raw, WNOHANG)
        guard result == pid else { return result == 0 }
        record(raw)
        return false
    }

    /// Waits for the child to end: its exit status, or the number of the signal that ended it.
    @discardableResult
    public func wait() -> Int32 {
        if let status = waitedStatus() { return status }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) == -1 {
            if errno != EINTR { return waitedStatus() ?? -1 }
        }
        return record(raw)
    }

    @discardableResult
    private func record(_ raw: Int32) -> Int32 {
        // WIFEXITED / WEXITSTATUS / WTERMSIG, spelled out: the C macros do not import.
        let signal = raw & 0x7F
        let value = signal == 0 ? (raw >> 8) & 0xFF : signal
        pthread_mutex_lock(&lock)
        status = status ?? value
        let result = status ?? value
        pthread_mutex_unlock(&lock)
        return result
    }

    private func waitedStatus() -> Int32? {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        return status
    }

    private static func makePipe(_ ends: inout [Int32]) -> Bool {
        guard pipe(&ends) == 0 else { return false }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
    }

    private static func lookUp(_ name: String, in path: String) -> String? {
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
