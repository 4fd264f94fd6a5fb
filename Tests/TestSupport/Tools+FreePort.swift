import Foundation
import Testing

extension Tools {
    /// A loopback port no one listens on now, for a server told its port on the command line.
    public static func freePort() throws -> UInt16 {
        let result = try python("import socket\ns = socket.socket()\ns.bind(('127.0.0.1', 0))\nprint(s.getsockname()[1])")
        guard let port = UInt16(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "no free port: \(result)"])
        }
        return port
    }
}
