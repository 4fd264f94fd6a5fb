extension WebSocketConnection {
    /// One WebSocket message, however many frames carried it.
    ///
    /// ```swift
    /// let greeting = WebSocketConnection.Message.text("hello")
    /// let reading = WebSocketConnection.Message.binary([0x01, 0x02])
    /// ```
    public enum Message: Sendable, Hashable, CustomStringConvertible {
        /// A text message.
        case text(String)
        /// A binary message.
        case binary([UInt8])

        /// The message's payload: a text message's UTF-8 bytes.
        public var bytes: [UInt8] {
            switch self {
            case .text(let text): Array(text.utf8)
            case .binary(let bytes): bytes
            }
        }

        /// The text, or the binary message's size.
        public var description: String {
            switch self {
            case .text(let text): text
            case .binary(let bytes): "\(bytes.count) bytes (binary)"
            }
        }
    }
}
