extension WebSocketConnection {
    /// The status code of a WebSocket close frame (RFC 6455, section 7.4).
    ///
    /// ```swift
    /// let code: WebSocketConnection.CloseCode = .messageTooBig   // 1009
    /// ```
    public struct CloseCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code as sent.
        public let rawValue: UInt16

        /// A code; any value, so that tests can send the ones the RFC forbids.
        public init(rawValue: UInt16) {
            self.rawValue = rawValue
        }

        /// 1000: the purpose of the connection is fulfilled.
        public static let normal = WebSocketConnection.CloseCode(rawValue: 1000)
        /// 1001: the endpoint is going away (a server shutting down).
        public static let goingAway = WebSocketConnection.CloseCode(rawValue: 1001)
        /// 1002: the peer broke the protocol (an unmasked client frame, a reserved bit, a bad opcode).
        public static let protocolError = WebSocketConnection.CloseCode(rawValue: 1002)
        /// 1003: a kind of data the endpoint cannot accept.
        public static let unsupportedData = WebSocketConnection.CloseCode(rawValue: 1003)
        /// 1007: a text message (or a close reason) that is not UTF-8.
        public static let invalidPayload = WebSocketConnection.CloseCode(rawValue: 1007)
        /// 1008: a message that breaks the endpoint's policy.
        public static let policyViolation = WebSocketConnection.CloseCode(rawValue: 1008)
        /// 1009: a message longer than the endpoint takes.
        public static let messageTooBig = WebSocketConnection.CloseCode(rawValue: 1009)
        /// 1011: the server met a condition it could not answer (MockServer: a message no response matches).
        public static let internalError = WebSocketConnection.CloseCode(rawValue: 1011)

        /// Whether the code may appear in a close frame: 1000–1003, 1007–1014, or 3000–4999. 1004,
        /// 1005, 1006 and 1015 are reserved for reports that no frame carried.
        public var isAllowedOnWire: Bool {
            switch rawValue {
            case 1000...1003, 1007...1014, 3000...4999: true
            default: false
            }
        }

        /// The number.
        public var description: String { String(rawValue) }
    }
}
