import MockServerHTTP

/// A stub that cannot be made as written.
public enum StubError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A raw response (`andReturnRawResponse`) that is not a status line, headers, a blank line and a body.
    case malformedRawResponse(String)
    /// An HTTP/2 error name (``Stub/Response/resetStream(_:)``) that RFC 9113 §7 does not define.
    case unknownHTTP2Error(String)
    /// A gRPC message or request pattern given as JSON (or a `Codable` value) that the loaded
    /// schema does not take: no schema is loaded, it has no such method, or the JSON is not a
    /// message of the method's type (the reason names the field).
    case grpcMessage(String)

    /// A sentence for test failures.
    public var description: String {
        switch self {
        case .malformedRawResponse(let reason): "the raw response is malformed: \(reason)"
        case .unknownHTTP2Error(let name):
            "\"\(name)\" is not an HTTP/2 error name (RFC 9113 §7): use one of \(HTTPStreamFault.errorNames.joined(separator: ", "))"
        case .grpcMessage(let reason): "the gRPC message is not one the loaded schema takes: \(reason)"
        }
    }
}
