/// Where a Swift handler of a WebSocket connection stands (``WebSocketConnectionDriver``).
enum WebSocketHandlerRun {
    /// The connection is answered by a script: there is no handler.
    case none
    /// Given at the handshake; it starts when the connection opens on its loop.
    case given(@Sendable (WebSocketConnection) async throws -> Void)
    /// Under way; cancelled when the connection closes first.
    case running(Task<Void, Never>)
    /// Returned, threw or cancelled.
    case ended
}
