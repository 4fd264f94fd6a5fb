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
        guard inputEnded else { return .needInput }
        session.clientEnded()
        return .finish(.peerClosed)
    }

    func closed(_ connection: StreamConnection, reason: Transcript.CloseReason) {
        session.clientEnded()
    }
}
