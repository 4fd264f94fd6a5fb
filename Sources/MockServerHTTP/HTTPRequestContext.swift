@_spi(HotPath) import MockServerCore

/// What a responder knows about where a request came from.
///
/// Its values are kept once for the connection and shared by every request's copy: a copy is one
/// reference, where a copy of each value retained seven (about 400 instructions of a small
/// HTTP/1.1 answer, callgrind, session 29).
public struct HTTPRequestContext: Sendable {
    /// The connection's values, made once.
    private final class Storage: Sendable {
        let connectionID: Int
        let peer: NetworkAddress?
        let local: NetworkAddress?
        let environment: ServerEnvironment
        let states: ConnectionStates
        let inbox: LoopInbox?
        let isHTTP2: Bool

        init(connectionID: Int, peer: NetworkAddress?, local: NetworkAddress?, environment: ServerEnvironment,
             states: ConnectionStates, inbox: LoopInbox?, isHTTP2: Bool) {
            self.connectionID = connectionID
            self.peer = peer
            self.local = local
            self.environment = environment
            self.states = states
            self.inbox = inbox
            self.isHTTP2 = isHTTP2
        }
    }

    private let storage: Storage

    /// The connection's number, as in the transcript.
    public var connectionID: Int { storage.connectionID }
    /// The client's address, when known.
    public var peer: NetworkAddress? { storage.peer }
    /// The address the server accepted the connection on.
    public var local: NetworkAddress? { storage.local }
    /// The transcript and logger of the server.
    package var environment: ServerEnvironment { storage.environment }
    /// What the layers above keep for this connection, each under a type of its own (the script
    /// glue's storage: its response set, a protocol's state), reached without a lookup by name.
    package var states: ConnectionStates { storage.states }
    /// The server's event loop, for a responder that opens connections of its own there (a
    /// recording proxy's to its upstream); `nil` outside a running server.
    package var inbox: LoopInbox? { storage.inbox }
    /// Whether the request came on an HTTP/2 stream (a recording proxy then offers `h2` to an https
    /// upstream, so that the client's protocol reaches it).
    package var isHTTP2: Bool { storage.isHTTP2 }

    package init(connectionID: Int, peer: NetworkAddress?, local: NetworkAddress?, environment: ServerEnvironment,
                 states: ConnectionStates? = nil, inbox: LoopInbox? = nil, isHTTP2: Bool = false) {
        storage = Storage(connectionID: connectionID, peer: peer, local: local, environment: environment,
                          states: states ?? ConnectionStates(), inbox: inbox, isHTTP2: isHTTP2)
    }

    /// The context of requests on `connection`: its number, addresses, server and loop, with
    /// `states` (what the layers above keep for it). A driver makes it once and shares it.
    package init(on connection: StreamConnection, states: ConnectionStates, isHTTP2: Bool = false) {
        self.init(connectionID: connection.id, peer: connection.peer, local: connection.localAddress,
                  environment: connection.loop.environment, states: states, inbox: connection.loop.inbox, isHTTP2: isHTTP2)
    }

    /// Records `event` in the server's transcript as this connection's.
    package func record(_ event: Transcript.Event) {
        environment.record(event, connection: connectionID)
    }
}
