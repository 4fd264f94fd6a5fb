/// Input that a framer cannot turn into a unit.
public enum FramingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A line grew past the limit before its terminator arrived.
    case lineTooLong(limit: Int)

    /// A sentence for logs and transcripts.
    public var description: String {
        switch self {
        case .lineTooLong(let limit): "line longer than the limit of \(limit) bytes"
        }
    }
}
