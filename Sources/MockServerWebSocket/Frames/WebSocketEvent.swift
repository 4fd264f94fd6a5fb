/// What a peer's frames amount to, once a message's fragments are put together.
package enum WebSocketEvent: Sendable, Hashable {
    /// A whole message: text (checked as UTF-8) or binary.
    case message(WebSocketConnection.Message)
    /// A ping, with its payload.
    case ping([UInt8])
    /// A pong, with its payload.
    case pong([UInt8])
    /// A close frame: its code, when it has one, and its reason.
    case close(WebSocketConnection.CloseCode?, reason: String)
}
