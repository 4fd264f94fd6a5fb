import Foundation
import Testing

/// A server written in Python (aiosmtpd, wsgidav, pyftpdlib …) run for a test: its source prints
/// the port it listens on as its first line, then serves until terminated (SIGTERM); its standard
/// error is discarded.
public final class PythonServer {
    public let port: UInt16
    private let process: ChildProcess

    /// Starts `source` with `arguments` and reads its port.
    public init(_ source: String, arguments: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) throws {
        PoolGuard.check("PythonServer (reading its port)", sourceLocation: sourceLocation)
        process = try ChildProcess(Tools.path(of: "python3") ?? "/usr/bin/python3", ["-c", source] + arguments, discardingErrors: true)
        let line = PipeReading.readLine(process.output)
        guard let port = UInt16(line) else {
            process.send(SIGKILL)
            throw NginxError("the Python server printed no port: \"\(line)\"")
        }
        self.port = port
    }

    /// The next line the server prints after its port.
    public func nextLine(sourceLocation: SourceLocation = #_sourceLocation) -> String {
        PoolGuard.check("PythonServer.nextLine", sourceLocation: sourceLocation)
        return PipeReading.readLine(process.output)
    }

    /// Stops the server and waits for it (also done when the object goes away).
    public func stop() {
        process.send(SIGTERM)
        process.wait()
    }

    deinit { stop() }
}
