import Foundation
import Testing

/// External programs the client tests drive.
public enum Tools {
    /// Ignores SIGPIPE in the test process, once.
    private static let ignoreSIGPIPE: Void = ProcessResources.ignoreBrokenPipes()

    /// The full path of `name` on `PATH`, or `nil` when it is not installed.
    /// For `python3`, the interpreter itself rather than a version manager's shim (``PythonInterpreter``).
    public static func path(of name: String) -> String? {
        name == "python3" ? PythonInterpreter.path : onPath(name)
    }

    /// The first executable file named `name` in `PATH`'s directories, as it is there (a shim
    /// included), or `nil`.
    public static func onPath(_ name: String) -> String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return directories.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    public static var hasCurl: Bool { path(of: "curl") != nil }
    public static var hasPython: Bool { path(of: "python3") != nil }
    public static var hasLftp: Bool { path(of: "lftp") != nil }
    public static var hasWget: Bool { path(of: "wget") != nil }
    public static var hasCadaver: Bool { path(of: "cadaver") != nil }
    public static var hasRclone: Bool { path(of: "rclone") != nil }
    public static var hasAb: Bool { path(of: "ab") != nil }
    public static var hasLitmus: Bool { path(of: "litmus") != nil }

    /// Whether `python3` can import `module` (`httpx`, `h2`): asked once per module and process.
    ///
    /// Test traits ask it (`.enabled(if: Tools.hasPythonModule("grpc"))`) on Swift's cooperative
    /// pool, before the test's own `.offPool` applies: a short run that talks to no server, so
    /// ``PoolGuard`` lets it through, and each module is imported once, not once per suite.
    public static func hasPythonModule(_ module: String) -> Bool {
        pythonModulesLock.lock()
        defer { pythonModulesLock.unlock() }
        if let answer = pythonModules[module] { return answer }
        let answer = hasPython && (try? execute("python3", ["-c", "import \(module)"]))?.status == 0
        pythonModules[module] = answer
        return answer
    }

    /// What ``hasPythonModule(_:)`` found, by module; read and written only under `pythonModulesLock`.
    nonisolated(unsafe) private static var pythonModules: [String: Bool] = [:]
    private static let pythonModulesLock = NSLock()

    /// Whether URLSession can open WebSockets here: always on Apple platforms; on Linux only when
    /// the system's libcurl, which FoundationNetworking drives, was built with WebSocket support
    /// (`curl -V` lists `ws`).
    public static let urlSessionSpeaksWebSocket: Bool = {
        #if canImport(Darwin)
        return true
        #else
        guard hasCurl, let version = try? execute("curl", ["-V"]) else { return false }
        let protocols = version.stdout.split(separator: "\n").first { $0.hasPrefix("Protocols:") } ?? ""
        return protocols.split(separator: " ").contains("ws")
        #endif
    }()

    /// A new empty temporary directory, in this test process's folder (``TestRunFolder``), which is
    /// removed when the process exits: removing it sooner is up to the test.
    public static func temporaryDirectory() throws -> URL {
        let url = TestRunFolder.url.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Deterministic pseudo-random bytes (so a failure can be reproduced).
    public static func randomBytes(_ count: Int, seed: UInt64) -> Data {
        var state = seed | 1
        var bytes = [UInt8](repeating: 0, count: count)
        for index in bytes.indices {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            bytes[index] = UInt8(truncatingIfNeeded: state)
        }
        return Data(bytes)
    }

    /// Whether this machine can bind a TCP socket to `::1`.
    public static let hasIPv6Loopback: Bool = {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET6, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0 }
        }
    }()

    /// The repository's root (tests run from a source checkout), for the bundled scripts and the
    /// fixtures that several test targets share.
    public static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A fixture in the repository, such as `Tests/MockServerMockDataTests/VOKMockData`.
    public static func fixture(_ path: String) -> URL {
        repositoryRoot.appendingPathComponent(path)
    }

    /// The `mockserver` executable built next to the test bundle: found from the bundle that holds
    /// this code (the `.xctest` bundle on Darwin, where the first argument is the test runner) or,
    /// failing that, from the running executable (Linux runs the test binary itself).
    public static var mockserver: URL {
        let starts = [Bundle(for: BundleMarker.self).bundleURL, URL(fileURLWithPath: CommandLine.arguments[0])]
        for start in starts {
            var directory = start.resolvingSymlinksInPath()
            while directory.path != "/" {
                let candidate = directory.appendingPathComponent("mockserver")
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                directory = directory.deletingLastPathComponent()
            }
        }
        return URL(fileURLWithPath: "mockserver")
    }

    /// A class whose bundle is the test bundle.
    private final class BundleMarker {}

    /// The output and status of a finished program.
    public struct Result {
        public let status: Int32
        public let stdout: String
        public let stderr: String
    }

    /// Runs a program to completion with its output captured (and killed after `timeout` seconds).
    ///
    /// It blocks the calling thread meanwhile: from a test, call it off Swift's cooperative pool (a
    /// suite or test with the `.offPool` trait, or inside ``offPool(_:)``); ``PoolGuard`` fails the
    /// test otherwise.
    public static func run(_ executable: String, _ arguments: [String], timeout: TimeInterval = 60,
                           input: String? = nil, environment: [String: String] = [:], directory: URL? = nil,
                           sourceLocation: SourceLocation = #_sourceLocation) throws -> Result {
        PoolGuard.check("Tools.run(\(executable))", sourceLocation: sourceLocation)
        return try execute(executable, arguments, timeout: timeout, input: input, environment: environment, directory: directory)
    }

    /// ``run(_:_:timeout:input:environment:directory:sourceLocation:)`` on whatever thread calls it.
    private static func execute(_ executable: String, _ arguments: [String], timeout: TimeInterval = 60,
                                input: String? = nil, environment: [String: String] = [:], directory: URL? = nil) throws -> Result {
        // Writing to a program that has already exited must fail the write, not kill the test process.
        ignoreSIGPIPE
        // `python3` by name is the interpreter PythonInterpreter found, not a version manager's shim.
        let program = executable == "python3" && environment["PATH"] == nil ? PythonInterpreter.path ?? executable : executable
        let child = try ChildProcess(program, arguments, environment: environment, directory: directory?.path, withInput: input != nil)
        if let input, let fd = child.input {
            let bytes = Array(input.utf8)
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                if written <= 0 { break }
                offset += written
            }
            child.closeInput()
        }
        // Weak: Dispatch holds the cancelled item until its deadline, and a strong capture kept the
        // child, with its two pipe descriptors, open that long after the run (about a thousand at
        // once in a full `swift test`).
        // A program that ignores SIGTERM (a Python one whose threads hold on) is killed 5 s later.
        let timer = DispatchWorkItem { [weak child] in
            child?.send(SIGTERM)
            DispatchQueue.global().asyncAfter(deadline: .now() + 5) { [weak child] in child?.send(SIGKILL) }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: timer)
        // Read both pipes before waiting, so a chatty program cannot fill a pipe and stall: standard
        // error on a thread of its own (not a Dispatch worker, which a busy process hands out only
        // once a second), standard output here.
        let stderrRead = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var stderrData: [UInt8] = []
        Thread {
            stderrData = PipeReading.readToEnd(child.errors)
            stderrRead.signal()
        }.start()
        let stdoutData = PipeReading.readToEnd(child.output)
        stderrRead.wait()
        let status = child.wait()
        timer.cancel()
        return Result(status: status, stdout: String(decoding: stdoutData, as: UTF8.self), stderr: String(decoding: stderrData, as: UTF8.self))
    }

    /// Runs a Python program given as text.
    public static func python(_ source: String, timeout: TimeInterval = 60, sourceLocation: SourceLocation = #_sourceLocation) throws -> Result {
        try run("python3", ["-c", source], timeout: timeout, sourceLocation: sourceLocation)
    }
}
