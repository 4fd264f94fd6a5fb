/// What every connection of one server reports to: the transcript, the logger, the connection
/// numbers and the count of open connections.
///
/// Shared between the server's event-loop thread and the threads that use its API.
package final class ServerEnvironment: Sendable {
    /// Everything that happened on the server's connections.
    package let transcript: Transcript
    /// Where log messages go.
    package let logger: MockServerLogger
    /// The last connection number handed out.
    private let connectionIDs = Locked(0)
    /// Control and data connections open now.
    package let openConnections = Locked(0)
    /// The network conditions new connections get; none when `nil`.
    package let conditions = Locked<NetworkConditions?>(nil)

    package init(transcript: Transcript, logger: MockServerLogger) {
        self.transcript = transcript
        self.logger = logger
    }

    /// A new connection number, unique within the server.
    package func makeConnectionID() -> Int {
        connectionIDs.withLock { next in
            next += 1
            return next
        }
    }

    /// The transport of a new TCP connection over `socket`: the socket itself, or the socket behind
    /// the current network conditions when this connection draws them.
    package func transport(for socket: Socket) -> any StreamTransport {
        let plain = SocketTransport(socket)
        var random = SystemRandomNumberGenerator()
        guard let conditions = conditions.withLock({ $0 })?.drawn(using: &random) else { return plain }
        return ConditionedTransport(plain, conditions: conditions)
    }

    /// Records `event` (of `exchange`, when the input came on one of several) and keeps the count
    /// of open connections.
    @inline(__always)
    package func record(_ event: __owned Transcript.Event, connection: Int, channel: Transcript.Channel = .main, exchange: Transcript.Exchange? = nil) {
        let opened = Self.openedCount(event)
        if opened != 0 { openConnections.withLock { $0 += opened } }
        transcript.record(event, connection: connection, channel: channel, exchange: exchange)
    }

    /// Records an input (``Transcript/recordInput(_:response:connection:channel:)``): it opens or
    /// closes nothing.
    @inline(__always)
    package func recordInput(_ unit: InputUnit, response: String?, connection: Int, channel: Transcript.Channel = .main) {
        transcript.recordInput(unit, response: response, connection: connection, channel: channel)
    }

    /// Records an output (``Transcript/recordOutput(_:connection:channel:)``): it opens or closes nothing.
    @inline(__always)
    package func recordOutput(_ bytes: [UInt8], connection: Int, channel: Transcript.Channel = .main) {
        transcript.recordOutput(bytes, connection: connection, channel: channel)
    }

    /// Records `events` as one step, with one time (the transcript's batch `record`), and keeps
    /// the count of open connections.
    package func record(_ events: [Transcript.Event], connection: Int, channel: Transcript.Channel = .main) {
        let opened = events.reduce(0) { $0 + Self.openedCount($1) }
        if opened != 0 { openConnections.withLock { $0 += opened } }
        transcript.record(events, connection: connection, channel: channel)
    }

    /// How `event` changes the count of open connections: 1 for a connection, -1 for a close.
    @inline(__always)
    private static func openedCount(_ event: Transcript.Event) -> Int {
        switch event {
        case .connected: 1
        case .closed: -1
        default: 0
        }
    }
}
