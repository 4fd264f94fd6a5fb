import MockServerHTTP
import MockServerWebSocket

/// What a stub that answers with a WebSocket keeps: the subprotocols it speaks, the longest message
/// it takes, and the handler that gets each connection.
package struct WebSocketStub: Sendable {
    let subprotocols: [String]
    let maximumMessageLength: Int
    let handler: @Sendable (WebSocketConnection) async throws -> Void

    /// The upgrade that answers one request, its messages named `name` in the transcript.
    func upgrade(name: String) -> HTTPUpgrade {
        .webSocket(name: name, subprotocols: subprotocols, maximumMessageLength: max(0, maximumMessageLength), handler: handler)
    }
}
