@_spi(HotPath) import MockServerCore
import MockServerHTTP
import MockServerScript

extension HTTPRequestContext {
    /// What the script glue keeps for this request's connection (``ScriptHTTPConnection``), kept in
    /// the connection's ``MockServerCore/ConnectionStates`` and made with its first request.
    package var scriptConnection: ScriptHTTPConnection {
        states.state(ScriptHTTPConnection.self) { ScriptHTTPConnection(connectionID: connectionID) }
    }

    /// What a script keeps for this request's connection (its response set, a protocol's state).
    package var scriptStorage: ScriptConnectionStorage {
        scriptConnection.storage
    }
}
