import Foundation
import Testing
import TestSupport
import MockServerCore

/// A driver that answers its first input with `bye` and a lingering close.
private final class ByeDriver: StreamDriver {
    private var heard = false
    private var answered = false

    func opened(_ connection: StreamConnection) -> [StreamStep] { [] }

    func received(_ bytes: UnsafeRawBufferPointer, on connection: StreamConnection) { heard = true }

    func next(on connection: StreamConnection, inputEnded: Bool) -> DriverDecision {
        if heard, !answered {
            answered = true
            connection.send(Array("bye".utf8))
            connection.finishAfterOutputLingering(.script)
            return .needInput
        }
        return inputEnded ? .finish(.peerClosed) : .needInput
    }

    func closed(_ connection: StreamConnection, reason: Transcript.CloseReason) {}
}

@Suite("A lingering close", .offPool)
struct LingeringCloseTests {
    @Test("the output and the end of the sending side go first; what the peer still sends is dropped, and the close waits for its end")
    func lingers() async throws {
        let server = try CoreOnlyServer { ByeDriver() }
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        try client.send("hello")
        #expect(try client.readToEnd() == Array("bye".utf8))
        // The server's side is shut, not closed: more from the client is read, not answered with an
        // RST (a plain close with unread input sends one, which can destroy what the client has not read).
        #expect(!server.environment.transcript.entries.contains { if case .closed = $0.event { true } else { false } })
        try client.send(String(repeating: "window update ", count: 1000))
        client.shutdownWrite()
        let closed = try await server.environment.transcript.wait { if case .closed = $0.event { true } else { false } }
        #expect(closed.event == .closed(.script))
        #expect(try client.readToEnd().isEmpty)
    }
}
