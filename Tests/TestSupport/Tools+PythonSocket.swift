import Foundation
import Testing

extension Tools {
    /// What ``pythonSocket(port:_:sourceLocation:)`` runs before a test's lines: `connect(port)`,
    /// a socket to 127.0.0.1 (10 s timeout) and its binary file for reading and writing; `s` and
    /// `f`, those of the server's `port`; `line(file)`, the next line `file` (`f` by default) reads,
    /// without its end.
    static func pythonSocketPrelude(port: UInt16) -> String {
        """
        import socket
        def connect(port):
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            return s, s.makefile("rwb")
        s, f = connect(\(port))
        def line(file=None):
            return (file or f).readline().decode().rstrip("\\r\\n")

        """
    }

    /// Runs python3's socket client of a line protocol: `source`, at the top level, after
    /// ``pythonSocketPrelude(port:)`` (the connection to `port`, `s` and `f`, and `line()`).
    public static func pythonSocket(port: UInt16, _ source: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Result {
        try python(pythonSocketPrelude(port: port) + source, sourceLocation: sourceLocation)
    }
}
