/// Bytes that a framer cannot turn into a unit.
public enum FramingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A line grew past the limit before its terminator arrived.
    case lineTooLong(limit: Int)
    /// An HTTP request line and headers grew past the limit.
    case headTooLong(limit: Int)
    /// An HTTP request body is longer than the limit.
    case bodyTooLong(limit: Int)
    /// Bytes that are not an HTTP/1.x request.
    case malformedRequest(String)

    /// The close reason a connection records for it.
    package var closeReason: CloseReason {
        switch self {
        case .lineTooLong(let limit), .headTooLong(let limit), .bodyTooLong(let limit): .inputTooLong(limit: limit)
        case .malformedRequest(let reason): .malformedInput(reason)
        }
    }

    /// A sentence for logs and transcripts.
    public var description: String {
        switch self {
        case .lineTooLong(let limit): "line longer than the limit of \(limit) bytes"
        case .headTooLong(let limit): "request head longer than the limit of \(limit) bytes"
        case .bodyTooLong(let limit): "request body longer than the limit of \(limit) bytes"
        case .malformedRequest(let reason): "malformed request: \(reason)"
        }
    }
}
