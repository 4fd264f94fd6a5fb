/// A stub that cannot be made as written.
public enum StubError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A raw response (`andReturnRawResponse`) that is not a status line, headers, a blank line and a body.
    case malformedRawResponse(String)

    /// A sentence for test failures.
    public var description: String {
        switch self {
        case .malformedRawResponse(let reason): "the raw response is malformed: \(reason)"
        }
    }
}
