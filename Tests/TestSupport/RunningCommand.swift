import Foundation

/// A running `mockserver` process whose first line has been read.
public final class RunningCommand {
    public let process: ChildProcess
    public let firstLine: String

    public init(_ arguments: [String], executable: URL = Tools.mockserver, environment: [String: String] = [:]) throws {
        process = try ChildProcess(executable.path, arguments, environment: environment)
        firstLine = PipeReading.readLine(process.output)
    }

    /// The next line the command prints (after the first).
    public func nextLine() -> String {
        PipeReading.readLine(process.output)
    }

    /// The ports from `mockserver listening on HOST:PORT (data port N)`.
    public var ports: (UInt16, UInt16)? {
        let parts = firstLine.split(separator: " ")
        guard parts.count == 7, let port = parts[3].split(separator: ":").last.flatMap({ UInt16($0) }),
              let data = UInt16(parts[6].dropLast()) else { return nil }
        return (port, data)
    }

    public func terminate(signal: Int32 = SIGTERM) -> (Int32, String) {
        process.send(signal)
        let status = process.wait()
        return (status, String(decoding: PipeReading.readToEnd(process.errors), as: UTF8.self))
    }
}
