import Foundation
@testable import MockServer

/// Starts a server on port 0 answering with `entries`.
func startServer(_ entries: [ResponseEntry], fallback: ResponseEntry? = nil,
                 configuration: MockServer.Configuration = .init()) throws -> MockServer {
    let server = MockServer(responder: PatternResponder(entries, fallback: fallback), configuration: configuration)
    try server.start()
    return server
}

/// A response built in tests, where the pattern is known to compile.
func entry(_ name: String, _ pattern: String, _ commands: ScriptCommand...) -> ResponseEntry {
    try! ResponseEntry(name, pattern: pattern, commands: commands)
}

extension TranscriptEvent {
    var isClosed: Bool { if case .closed = self { true } else { false } }
}

/// Starts a server on a port below every system's ephemeral range (Linux hands out 32768–60999,
/// macOS 49152–65535), so that no port-0 bind and no outgoing connection elsewhere in the test run
/// can take the port while a test frees it and binds it again. Taken ports are skipped.
func startServerOnFixedPort(_ entries: [ResponseEntry]) throws -> MockServer {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<200 {
        let port = UInt16.random(in: 20_000..<30_000, using: &generator)
        let server = MockServer(responder: PatternResponder(entries), port: port)
        do {
            try server.start()
            return server
        } catch let error as SocketError where error.code == EADDRINUSE {
            continue
        }
    }
    throw SocketError(call: "bind", address: "127.0.0.1:20000-29999", code: EADDRINUSE)
}
