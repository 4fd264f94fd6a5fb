import MockServerCore

/// What a responder knows about where a request came from.
public struct HTTPRequestContext: Sendable {
    /// The connection's number, as in the transcript.
    public let connectionID: Int
    /// The client's address, when known.
    public let peer: SocketAddress?
    /// The address the server accepted the connection on.
    public let local: SocketAddress?
    /// Values a responder keeps for this connection (a script's current response set, say).
    public let connectionState: HTTPConnectionState
    /// The transcript and logger of the server.
    package let environment: ServerEnvironment

    package init(connectionID: Int, peer: SocketAddress?, local: SocketAddress?, connectionState: HTTPConnectionState, environment: ServerEnvironment) {
        self.connectionID = connectionID
        self.peer = peer
        self.local = local
        self.connectionState = connectionState
        self.environment = environment
    }

    /// Records `event` in the server's transcript as this connection's.
    package func record(_ event: TranscriptEvent) {
        environment.record(event, connection: connectionID)
    }
}
