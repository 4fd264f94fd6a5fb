import Foundation

/// A server written in Python (aiosmtpd, wsgidav, pyftpdlib …) run for a test: its source prints
/// the port it listens on as its first line, then serves until terminated. The source should
/// unblock SIGTERM (`signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])`): a child
/// inherits the test thread's signal mask, which blocks it.
public final class PythonServer {
    public let port: UInt16
    private let process = Process()
    private let output = Pipe()

    /// Starts `source` with `arguments` and reads its port.
    public init(_ source: String, arguments: [String] = []) throws {
        process.executableURL = URL(fileURLWithPath: Tools.path(of: "python3") ?? "/usr/bin/python3")
        process.arguments = ["-c", source] + arguments
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let line = PipeReading.readLine(output.fileHandleForReading.fileDescriptor)
        guard let port = UInt16(line) else {
            process.terminate()
            throw NginxError("the Python server printed no port: \"\(line)\"")
        }
        self.port = port
    }

    /// The next line the server prints after its port.
    public func nextLine() -> String {
        PipeReading.readLine(output.fileHandleForReading.fileDescriptor)
    }

    /// Stops the server and waits for it (also done when the object goes away).
    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    deinit { stop() }
}
