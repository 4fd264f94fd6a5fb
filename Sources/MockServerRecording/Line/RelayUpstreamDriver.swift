import MockServerCore

/// The upstream's side of a line recording: what it sends goes to the ``RelaySession``.
final class RelayUpstreamDriver: StreamDriver {
    private let session: RelaySession

    init(session: RelaySession) {
        self.session = session
    }

    func opened(_ connection: StreamConnection) -> [StreamStep] {
        session.upstreamOpened()
        return []
    }

    func received(_ bytes: UnsafeRawBufferPointer, on connection: StreamConnection) {
        session.fromUpstream(Array(bytes))
    }

    func next(on connection: StreamConnection, inputEnded: Bool) -> DriverDecision {
        // While the client does not read, the upstream is not read either (``RelaySession/clientHasRoom``).
        guard inputEnded else { return session.clientHasRoom ? .needInput : .wait }
        session.upstreamEnded(failed: nil)
        return .finish(.peerClosed)
    }

    func outputDrained(on connection: StreamConnection) {
        session.upstreamDrained()
    }

    func closed(_ connection: StreamConnection, reason: Transcript.CloseReason) {
        if case .failed(let text) = reason {
            session.upstreamEnded(failed: text)
        } else {
            session.upstreamEnded(failed: nil)
        }
    }
}
