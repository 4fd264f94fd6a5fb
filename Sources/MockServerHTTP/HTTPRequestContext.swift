@_spi(HotPath) import MockServerCore

/// What a responder knows about where a request came from.
public struct HTTPRequestContext: Sendable {
    /// The connection's number, as in the transcript.
    public let connectionID: Int
    /// The client's address, when known.
    public let peer: NetworkAddress?
    /// The address the server accepted the connection on.
    public let local: NetworkAddress?
    /// The transcript and logger of the server.
    package let environment: ServerEnvironment
    /// What the layers above keep for this connection, each under a type of its own (the script
    /// glue's storage: its response set, a protocol's state), reached without a lookup by name.
    package let states: ConnectionStates
    /// The server's event loop, for a responder that opens connections of its own there (a
    /// recording proxy's to its upstream); `nil` outside a running server.
    package let inbox: LoopInbox?
    /// Whether the request came on an HTTP/2 stream (a recording proxy then offers `h2` to an https
    /// upstream, so that the client's protocol reaches it).
    package let isHTTP2: Bool

    package init(connectionID: Int, peer: NetworkAddress?, local: NetworkAddress?, environment: ServerEnvironment,
                 states: ConnectionStates? = nil, inbox: LoopInbox? = nil, isHTTP2: Bool = false) {
        self.inbox = inbox
        self.isHTTP2 = isHTTP2
        self.connectionID = connectionID
        self.peer = peer
        self.local = local
        self.environment = environment
        self.states = states ?? ConnectionStates()
    }

    /// Records `event` in the server's transcript as this connection's.
    package func record(_ event: Transcript.Event) {
        environment.record(event, connection: connectionID)
    }
}
