extension WebSocketConnection {
    /// A WebSocket connection ended, or began closing, before what was asked of it: thrown by
    /// ``WebSocketConnection/send(_:)`` once the close handshake has begun, and by the iteration of
    /// ``WebSocketConnection/messages`` when the connection ends without the client's close frame.
    ///
    /// ```swift
    /// do {
    ///     try await socket.send("late")
    /// } catch let error as WebSocketConnection.ClosedError {
    ///     print(error.reason)
    /// }
    /// ```
    public struct ClosedError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What happened, in a few words.
        public let reason: String

        /// An error for `reason`.
        public init(reason: String) {
            self.reason = reason
        }

        /// `WebSocket closed: ` and the reason.
        public var description: String { "WebSocket closed: \(reason)" }
    }
}
