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
