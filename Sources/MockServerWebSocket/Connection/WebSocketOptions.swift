import MockServerScript

/// How a WebSocket script's connections shake hands and what they take: from its top-level
/// `path`, `subprotocols` and `max-message`.
package struct WebSocketOptions: Sendable, Hashable {
    /// The only path served; any path when `nil`.
    package var path: String?
    /// The subprotocols spoken, preferred first.
    package var subprotocols: [String] = []
    /// The longest message taken, fragments together (16 MiB unless the script says).
    package var maximumMessageLength = 16 << 20
    /// How long the server waits for the client's close frame after sending its own.
    package var closeTimeout: Duration = .seconds(5)

    /// The defaults: any path, no subprotocol, messages up to 16 MiB.
    package init() {}

    /// The options of a script: those its settings give, or the defaults.
    package init(script: ResponseScript?) {
        self = script?.settings[WebSocketOptions.self] ?? WebSocketOptions()
    }
}
