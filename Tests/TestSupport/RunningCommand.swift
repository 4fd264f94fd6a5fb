import Foundation
import Testing

/// A running `mockserver` process whose first line has been read: the command-line tests' and the
/// admin API's tests' way to run the built executable as a user would.
public final class RunningCommand {
    /// The process.
    public let process: ChildProcess
    /// The first line it printed (`mockserver listening on HOST:PORT…`).
    public let firstLine: String

    /// Starts `executable` (the built `mockserver`) with `arguments`, in `directory` (the test's own
    /// without it), and reads its first line.
    public init(_ arguments: [String], executable: URL = Tools.mockserver, environment: [String: String] = [:], directory: URL? = nil,
                sourceLocation: SourceLocation = #_sourceLocation) throws {
        PoolGuard.check("RunningCommand (reading its first line)", sourceLocation: sourceLocation)
        process = try ChildProcess(executable.path, arguments, environment: environment, directory: directory?.path)
        firstLine = PipeReading.readLine(process.output)
    }

    /// The next line the command prints (after the first).
    public func nextLine(sourceLocation: SourceLocation = #_sourceLocation) -> String {
        PoolGuard.check("RunningCommand.nextLine", sourceLocation: sourceLocation)
        return PipeReading.readLine(process.output)
    }

    /// The ports from `mockserver listening on HOST:PORT (data port N)`.
    public var ports: (UInt16, UInt16)? {
        let parts = firstLine.split(separator: " ")
        guard parts.count == 7, let port = parts[3].split(separator: ":").last.flatMap({ UInt16($0) }),
              let data = UInt16(parts[6].dropLast()) else { return nil }
        return (port, data)
    }

    /// Sends `signal` and waits for the exit: the status and what the command wrote to standard error.
    public func terminate(signal: Int32 = SIGTERM) -> (Int32, String) {
        process.send(signal)
        let status = process.wait()
        return (status, String(decoding: PipeReading.readToEnd(process.errors), as: UTF8.self))
    }
}
