/// The state a running server shares between its event loop and the threads that use its API.
final class ServerCore: Sendable {
    private struct Shared {
        var responder: any Responder
        var data: [UInt8]
    }

    let configuration: MockServer.Configuration
    let transcript: Transcript
    let connectionIDs = Locked(0)
    private let shared: Locked<Shared>

    init(responder: any Responder, data: [UInt8], configuration: MockServer.Configuration) {
        self.configuration = configuration
        self.transcript = Transcript(limit: configuration.transcriptLimit, observer: configuration.transcriptObserver)
        self.shared = Locked(Shared(responder: responder, data: data))
    }

    var logger: Logger { configuration.logger }

    var responder: any Responder {
        get { shared.withLock { $0.responder } }
        set { shared.withLock { $0.responder = newValue } }
    }

    var data: [UInt8] {
        get { shared.withLock { $0.data } }
        set { shared.withLock { $0.data = newValue } }
    }

    /// The responder and the substitution context for one reply, read together under one lock.
    @inline(__always)
    func replyState(base: SubstitutionContext) -> (any Responder, SubstitutionContext) {
        shared.withLock { shared in
            var context = base
            context.data = shared.data
            return (shared.responder, context)
        }
    }

    @inline(__always)
    func record(_ event: TranscriptEvent, connection: Int, channel: Channel = .control) {
        transcript.record(event, connection: connection, channel: channel)
    }
}
