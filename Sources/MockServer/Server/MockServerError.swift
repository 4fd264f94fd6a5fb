/// Misuse of a server's API.
public enum MockServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// ``MockServer/useResponseSet(_:)`` was called while the responder is not a ``PatternResponder``.
    case notAPatternResponder

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .notAPatternResponder: "the server's responder is not a PatternResponder, so it has no response sets"
        }
    }
}
