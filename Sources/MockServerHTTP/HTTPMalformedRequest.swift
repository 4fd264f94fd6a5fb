import MockServerCore

/// The answer to bytes that are not an HTTP/1.x request, as nginx gives it: a status for the kind
/// of problem and a text body naming it, on a connection that then closes.
///
/// | problem | status |
/// |---|---|
/// | a request line longer than the head limit | `414 URI Too Long` |
/// | header fields longer than the head limit | `431 Request Header Fields Too Large` |
/// | a body longer than the body limit (a `Content-Length` over it, or chunks adding up past it), or HTTP/2 bodies still coming on one connection adding up past it | `413 Content Too Large` |
/// | a transfer coding other than `chunked` | `501 Not Implemented` |
/// | a version other than HTTP/1.0 and HTTP/1.1 | `505 HTTP Version Not Supported` |
/// | anything else (RFC 9112's strict rules): a bad request line, a method that is not a token, a target with a control character or of no form HTTP knows, a path climbing above the root or holding `%00`, a bad `Host` value, the HTTP/2 preface, a bad chunk-size line, extension or trailer, a header line without a colon, whitespace before a colon, an obs-fold line, a field name that is not a token, a control character in a value, a bare CR, two `Host` fields, an invalid or repeated `Content-Length`, a repeated `Transfer-Encoding` or one in an HTTP/1.0 request, `Content-Length` with `Transfer-Encoding`, a bad chunk size, bytes that cannot start a request (a TLS handshake) | `400 Bad Request` |
package enum HTTPMalformedRequest {
    /// The status and reason phrase for `error`.
    package static func status(for error: FramingError) -> (code: Int, reason: String) {
        switch error {
        case .tooLong(let part, _) where part == FramingError.bodyPart || part == FramingError.heldBodiesPart:
            (413, "Content Too Large")
        case .tooLong(let part, _) where part == FramingError.requestLinePart:
            (414, "URI Too Long")
        case .tooLong, .lineTooLong:
            (431, "Request Header Fields Too Large")
        case .malformed(_, let reason) where reason.hasPrefix(FramingError.unsupportedTransferCodingReason):
            (501, "Not Implemented")
        case .malformed(_, let reason) where reason.hasPrefix(FramingError.unsupportedVersionReason):
            (505, "HTTP Version Not Supported")
        case .malformed:
            (400, "Bad Request")
        }
    }

    /// The response for `error`: its status, `Connection: close`, and a text body that says what
    /// was wrong (`MockServer: 400 Bad Request: malformed request: a chunk size is not hexadecimal: zz`).
    package static func response(for error: FramingError) -> HTTPMockResponse {
        let (code, reason) = status(for: error)
        // A body over the limit names the setting that raises it.
        let setting = code == 413 ? " (MockServer.Configuration.maximumRequestBodySize, mockserver --max-request-body)" : ""
        let body = Array("MockServer: \(code) \(reason)\(setting): \(error)\n".utf8)
        return HTTPMockResponse(status: code, reason: reason,
                            headers: ["Content-Type": "text/plain; charset=utf-8", "Connection": "close"], body: body)
    }
}
