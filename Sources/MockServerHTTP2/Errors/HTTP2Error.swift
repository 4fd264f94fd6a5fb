/// An HTTP/2 error this side detected (RFC 9113 §5.4): its code, whether it ends the connection
/// (GOAWAY) or only a stream (RST_STREAM), and what caused it.
package struct HTTP2Error: Error, Equatable, Sendable, CustomStringConvertible {
    /// What the error ends.
    package enum Scope: Equatable, Sendable {
        /// A connection error (§5.4.1): answered with GOAWAY, then the connection closes.
        case connection
        /// A stream error (§5.4.2): answered with RST_STREAM on this stream; the connection goes on.
        case stream(UInt32)
    }

    package var code: HTTP2ErrorCode
    package var scope: Scope
    /// The culprit, in words (sent as GOAWAY's debug data, and logged).
    package var reason: String

    /// A connection error.
    package init(_ code: HTTP2ErrorCode, _ reason: String) {
        self.code = code
        scope = .connection
        self.reason = reason
    }

    /// A stream error on `stream`.
    package init(_ code: HTTP2ErrorCode, stream: UInt32, _ reason: String) {
        self.code = code
        scope = .stream(stream)
        self.reason = reason
    }

    package var description: String {
        switch scope {
        case .connection: "connection error \(code): \(reason)"
        case let .stream(id): "stream \(id) error \(code): \(reason)"
        }
    }
}
