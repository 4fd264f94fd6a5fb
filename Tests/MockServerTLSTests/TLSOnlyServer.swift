import MockServerCore
import MockServerTLS

/// A TLS server made of the core's parts and the TLS layer alone (no script, no protocol target):
/// every accepted connection speaks TLS from its first byte, to a test driver.
final class TLSOnlyServer: Sendable {
    let port: UInt16
    let environment = ServerEnvironment(transcript: Transcript(), logger: .disabled)
    private let server: LoopServer

    /// Binds a port on loopback and serves it with the core's ``LoopServer``, as every server does.
    init(_ configuration: TLSSettings, makeDriver: @escaping @Sendable () -> any StreamDriver) throws {
        let context = try TLSContext(configuration)
        server = try LoopServer.start(binding: [NetworkAddress(host: "127.0.0.1", port: 0)], environment: environment, prepare: { _ in }) { loop, sockets, _ in
            [Listener(socket: sockets[0], loop: loop) { [unowned loop] client in
                try StreamConnection.acceptingTLS(socket: client, loop: loop, driver: makeDriver(), context: context).start()
            }]
        }.server
        port = server.addresses[0].port
    }

    /// The texts of the transcript's notes of `kind` (`tls-handshake`, `tls-fault`, `tls-failed`…).
    func notes(_ kind: String) -> [String] {
        environment.transcript.entries.compactMap { entry in
            if case .note(let note) = entry.event, note.kind == kind { note.text } else { nil }
        }
    }

    func stop() { server.stop() }
}

/// Answers each line with the same line; `QUIT` is answered `BYE` and closes the connection.
final class LineEchoDriver: StreamDriver {
    private var buffer: [UInt8] = []

    func opened(_ connection: StreamConnection) -> [StreamStep] { [] }

    func received(_ bytes: UnsafeRawBufferPointer, on connection: StreamConnection) {
        buffer.append(contentsOf: bytes)
    }

    func next(on connection: StreamConnection, inputEnded: Bool) -> DriverDecision {
        guard let end = buffer.firstIndex(of: UInt8(ascii: "\n")) else { return inputEnded ? .finish(.peerClosed) : .needInput }
        let line = Array(buffer[...end])
        buffer.removeFirst(end + 1)
        if line == Array("QUIT\n".utf8) { return .steps([.send(Array("BYE\n".utf8)), .close(.script)]) }
        return .steps([.send(line)])
    }

    func closed(_ connection: StreamConnection, reason: Transcript.CloseReason) {}
}
