/// What a WebSocket script command hands the connection's driver (a ``MockServerCore/ReplyStep/output(_:)``):
/// the output type of WebSocket scripts.
package enum WebSocketOutput: Sendable, Hashable {
    /// A frame to send as it is: a message, a ping, a pong, or a deliberately broken frame.
    case frame(WebSocketFrame)
    /// Begins the close handshake: a close frame, then no more messages; the connection closes
    /// when the client's close frame comes back (or after a time limit).
    case close(WebSocketConnection.CloseCode, reason: String)
    /// Closes the TCP connection with no close frame.
    case disconnect
    /// From now on, pings from the client go unanswered.
    case ignorePings
}
