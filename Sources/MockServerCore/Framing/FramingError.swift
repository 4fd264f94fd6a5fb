/// Bytes that a framer cannot turn into a unit. A protocol's framer names its own units and parts
/// (HTTP's gives `request head` and `malformed request: …`), so that the loop and the transcript
/// need no protocol's words.
public enum FramingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A line grew past the limit before its terminator arrived.
    case lineTooLong(limit: Int)
    /// A part of a unit (a request's head or body, say) grew past the limit.
    case tooLong(part: String, limit: Int)
    /// Bytes that are not a `unit` of the framer's protocol (`request`, say), for `reason`.
    case malformed(unit: String, reason: String)

    /// The close reason a connection records for it.
    package var closeReason: Transcript.CloseReason {
        switch self {
        case .lineTooLong(let limit), .tooLong(_, let limit): .inputTooLong(limit: limit)
        case .malformed(_, let reason): .malformedInput(reason)
        }
    }

    /// A sentence for logs and transcripts.
    public var description: String {
        switch self {
        case .lineTooLong(let limit): "line longer than the limit of \(limit) bytes"
        case .tooLong(let part, let limit): "\(part) longer than the limit of \(limit) bytes"
        case .malformed(let unit, let reason): "malformed \(unit): \(reason)"
        }
    }
}
