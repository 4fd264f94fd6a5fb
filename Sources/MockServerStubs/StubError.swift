import MockServerHTTP

/// A stub that cannot be made as written.
public enum StubError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A raw response (`andReturnRawResponse`) that is not a status line, headers, a blank line and a body.
    case malformedRawResponse(String)
    /// An HTTP/2 error name (``Stub/Response/resetStream(_:)``) that RFC 9113 §7 does not define.
    case unknownHTTP2Error(String)

    /// A sentence for test failures.
    public var description: String {
        switch self {
        case .malformedRawResponse(let reason): "the raw response is malformed: \(reason)"
        case .unknownHTTP2Error(let name):
            "\"\(name)\" is not an HTTP/2 error name (RFC 9113 §7): use one of \(HTTPStreamFault.errorNames.joined(separator: ", "))"
        }
    }
}
