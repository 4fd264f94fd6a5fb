/// Where a WebSocket connection is in its life (RFC 6455, sections 4 and 7).
package enum WebSocketConnectionState: Sendable, Hashable {
    /// Reading the client's opening HTTP request.
    case handshaking
    /// The handshake was refused: the error response is sent, then the connection closes.
    case refused(String)
    /// Messages flow both ways.
    case open
    /// The server sent its close frame and waits for the client's; messages that still come are dropped.
    case closing
    /// The close handshake is over, or the connection failed: nothing more is read.
    case finished
}
