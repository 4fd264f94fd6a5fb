/// A peer's frame or message that breaks RFC 6455 or the server's limits: the close code the
/// connection fails with and a reason that names the culprit.
package struct WebSocketProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The code of the close frame sent before the connection closes.
    package let code: WebSocketConnection.CloseCode
    /// What was wrong, for the close frame (cut to fit its 123 bytes), the log and the transcript.
    package let reason: String

    package init(_ code: WebSocketConnection.CloseCode, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    package var description: String { "\(reason) (close \(code))" }
}
