import Foundation
import Testing
import TestSupport
import MockServerCore

/// What ``ShoutingDriver``'s protocol sends besides bytes.
enum Shout: Sendable {
    /// The text in capitals.
    case upper(String)
}

/// A driver that answers its opening with reply steps, through the core's one converter: its own
/// output (``Shout``) beside the shared steps, and a `then` worked out when it is reached.
final class ShoutingDriver: StreamDriver, ReplyPerformer {
    func opened(_ connection: StreamConnection) -> [StreamStep] {
        let steps: [ReplyStep<Shout>] = [
            .send(Array("a".utf8)), .output(.upper("b")),
            .then { [.send(Array("c".utf8)), .output(.upper("d"))] },
            .send(Array("e".utf8)), .close,
        ]
        return streamSteps(for: steps, on: connection)
    }

    func outputStep(_ output: Shout, on connection: StreamConnection) -> StreamStep {
        switch output {
        case .upper(let text): .send(Array(text.uppercased().utf8))
        }
    }

    func received(_ bytes: UnsafeRawBufferPointer, on connection: StreamConnection) {}

    func next(on connection: StreamConnection, inputEnded: Bool) -> DriverDecision { inputEnded ? .finish(.peerClosed) : .needInput }

    func closed(_ connection: StreamConnection, reason: Transcript.CloseReason) {}
}

@Suite("Reply steps carried out by the core's one converter", .offPool)
struct ReplyPerformerTests {
    @Test("a driver's own output, a then's steps before the rest, and the close, over a socket")
    func performsInOrder() async throws {
        let server = try CoreOnlyServer { ShoutingDriver() }
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        #expect(try client.readToEnd() == Array("aBcDe".utf8))
        _ = try await server.environment.transcript.wait { $0.event == .closed(.script) }
    }

    @Test("a step without output widens to every driver's, its then included")
    func widening() {
        let steps: [ReplyStep<Never>] = [.send([1]), .pause(.seconds(2)), .close, .fault(.reset), .conditions(nil), .then { [.send([3])] }]
        let widened = steps.map { $0.widened(to: Shout.self) }
        guard widened.count == 6, case .send([1]) = widened[0], case .pause(.seconds(2)) = widened[1], case .close = widened[2],
              case .fault(.reset) = widened[3], case .conditions(nil) = widened[4], case .then(let rest) = widened[5] else {
            Issue.record("widened to \(widened)")
            return
        }
        let more = rest()
        guard more.count == 1, case .send([3]) = more[0] else {
            Issue.record("the then's steps widened to \(more)")
            return
        }
    }
}
