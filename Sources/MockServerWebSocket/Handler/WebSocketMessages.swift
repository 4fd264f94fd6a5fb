extension WebSocketConnection {
    /// The client's messages on a handler's WebSocket connection (``WebSocketConnection/messages``): an
    /// async sequence that ends at the client's close frame and throws ``WebSocketConnection.ClosedError`` when the
    /// connection ends without one.
    ///
    /// The server reads ahead at most ``WebSocketConnection/queueLimit`` messages the handler has not
    /// taken; then it stops reading the connection (the client's sends back up, as TCP makes them) until
    /// the handler has taken half of them.
    ///
    /// ```swift
    /// for try await message in socket.messages {
    ///     try await socket.send(message)
    /// }
    /// ```
    public struct Messages: AsyncSequence, Sendable {
        public typealias Element = WebSocketConnection.Message

        let stream: AsyncThrowingStream<WebSocketConnection.Message, any Error>
        /// Called for each message the handler takes.
        let taken: @Sendable () -> Void

        /// Iterates the messages.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: AsyncThrowingStream<WebSocketConnection.Message, any Error>.AsyncIterator
            let taken: @Sendable () -> Void

            /// The next message; `nil` after the client's close frame.
            ///
            /// - Throws: ``WebSocketConnection.ClosedError`` when the connection ended without the client's close frame.
            public mutating func next() async throws -> WebSocketConnection.Message? {
                let message = try await base.next()
                if message != nil { taken() }
                return message
            }
        }

        /// An iterator over the messages; the sequence is meant to be iterated once.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(base: stream.makeAsyncIterator(), taken: taken)
        }
    }
}
