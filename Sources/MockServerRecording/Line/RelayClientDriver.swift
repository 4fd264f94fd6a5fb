import MockServerCore

/// The client's side of a line recording: what it sends goes to the ``RelaySession``.
final class RelayClientDriver: StreamDriver {
    private let session: RelaySession

    init(session: RelaySession) {
        self.session = session
    }

    func opened(_ connection: StreamConnection) -> [StreamStep] { [] }

    func received(_ bytes: UnsafeRawBufferPointer, on connection: StreamConnection) {
        session.fromClient(Array(bytes))
    }

    func next(on connection: StreamConnection, inputEnded: Bool) -> DriverDecision {
        // While the upstream does not read, the client is not read either (``RelaySession/upstreamHasRoom``).
        guard inputEnded else { return session.upstreamHasRoom ? .needInput : .wait }
        session.clientEnded()
        return .finish(.peerClosed)
    }

    func outputDrained(on connection: StreamConnection) {
        session.clientDrained()
    }

    func closed(_ connection: StreamConnection, reason: Transcript.CloseReason) {
        session.clientEnded()
    }
}
