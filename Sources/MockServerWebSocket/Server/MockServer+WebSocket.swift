import MockServerCore
import MockServerEngine

extension MockServer {
    /// Sends `message` to an open WebSocket connection of a `websocket` script, outside any
    /// response: the server-pushed event a client under test waits for. It goes after whatever the
    /// connection has queued, and is recorded in the transcript as the connection's output.
    ///
    /// ```swift
    /// let reached = await server.sendWebSocketMessage(.text("price 42"))
    /// ```
    ///
    /// - Parameter connection: the connection's number, as in the transcript; every open
    ///   connection when `nil`.
    /// - Returns: the numbers of the connections it was sent to: none when the server is stopped,
    ///   no connection is open (or the one named is not), or a connection has begun closing.
    @discardableResult
    public func sendWebSocketMessage(_ message: WebSocketConnection.Message, toConnection connection: Int? = nil) async -> [Int] {
        await withOpenWebSockets { $0.push(message, to: connection) }
    }

    /// The numbers of the WebSocket connections open now (handshake done, close not begun), as in
    /// the transcript.
    public func openWebSocketConnections() async -> [Int] {
        await withOpenWebSockets(\.ids)
    }

    /// What `body` returns for the running loop's open WebSocket connections, on the loop's thread;
    /// no numbers when the server is stopped (or stops first) or has had no WebSocket connection.
    private func withOpenWebSockets(_ body: @escaping @Sendable (WebSocketConnections) -> [Int]) async -> [Int] {
        guard let inbox = loopInbox else { return [] }
        return await withCheckedContinuation { continuation in
            let queued = inbox.execute { loop in
                continuation.resume(returning: loop.isRunning ? loop.existingAttachment(WebSocketConnections.self).map(body) ?? [] : [])
            }
            if !queued { continuation.resume(returning: []) }
        }
    }
}
