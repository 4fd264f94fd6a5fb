@_spi(HotPath) import MockServerCore

/// What one connection keeps across its replies: its response set and each protocol's own state
/// (FTP's data channel and working directory, say), by type.
///
/// Safe to use from any thread; a protocol's state that lives on the loop is touched only there.
public final class ScriptConnectionStorage: Sendable {
    private struct Values {
        var session: ScriptSession
        var protocolValues = ScriptSettings()
        /// Made when a protocol first keeps a state: most connections of a script never do (an
        /// idle one then costs the store and its mutex less, about 110 bytes).
        var states: ConnectionStates?
    }

    private let values: Locked<Values>

    /// Creates the storage of a new connection.
    public init(connectionID: Int) {
        values = Locked(Values(session: ScriptSession(connectionID: connectionID)))
    }

    /// The connection's responder state (its response set).
    public var session: ScriptSession {
        get { values.withLock { $0.session } }
        set { values.withLock { $0.session = newValue } }
    }

    /// The values this connection's protocols set for their substitutions, over the server's
    /// (FTP's own passive port after `«passive»`, for `$pasv`).
    public var protocolValues: ScriptSettings {
        get { values.withLock { $0.protocolValues } }
        set { values.withLock { $0.protocolValues = newValue } }
    }

    /// The state a protocol keeps of type `State`, made by `make` the first time it is asked for.
    public func state<State: Sendable>(_ type: State.Type, make: () -> State) -> State {
        let states = values.withLock { values in
            if let states = values.states { return states }
            let made = ConnectionStates()
            values.states = made
            return made
        }
        return states.state(type, make: make)
    }

    /// Tells every state that is a ``ScriptConnectionResource`` that the connection closed.
    public func connectionClosed() {
        guard let states = values.withLock({ $0.states }) else { return }
        for case let resource as any ScriptConnectionResource in states.removeAll() { resource.connectionClosed() }
    }
}

/// A protocol's per-connection state that holds something to release when the connection closes
/// (a data channel, a listener).
package protocol ScriptConnectionResource: Sendable {
    /// The connection closed; release what belongs to it. Called on the connection's thread.
    func connectionClosed()
}
