import MockServerHTTP
import MockServerScript

extension HTTPRequestContext {
    /// What a script keeps for this request's connection (its response set, a protocol's state),
    /// kept in the connection's ``MockServerCore/ConnectionStates`` and made with its first request.
    package var scriptStorage: ScriptConnectionStorage {
        states.state(ScriptConnectionStorage.self) { ScriptConnectionStorage(connectionID: connectionID) }
    }
}
