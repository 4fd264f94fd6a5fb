import MockServerCore

/// The answer to bytes that are not an HTTP/1.x request, as nginx gives it: a status for the kind
/// of problem and a text body naming it, on a connection that then closes.
///
/// | problem | status |
/// |---|---|
/// | a request line or header fields longer than the head limit | `431 Request Header Fields Too Large` |
/// | a body longer than the body limit (a `Content-Length` over it, or chunks adding up past it) | `413 Content Too Large` |
/// | a transfer coding other than `chunked` | `501 Not Implemented` |
/// | anything else: a bad request line, a header line without a colon, an invalid or repeated `Content-Length`, `Content-Length` with `Transfer-Encoding`, a bad chunk size | `400 Bad Request` |
package enum HTTPMalformedRequest {
    /// The status and reason phrase for `error`.
    package static func status(for error: FramingError) -> (code: Int, reason: String) {
        switch error {
        case .tooLong(let part, _) where part == FramingError.bodyPart:
            (413, "Content Too Large")
        case .tooLong, .lineTooLong:
            (431, "Request Header Fields Too Large")
        case .malformed(_, let reason) where reason.hasPrefix(FramingError.unsupportedTransferCodingReason):
            (501, "Not Implemented")
        case .malformed:
            (400, "Bad Request")
        }
    }

    /// The response for `error`: its status, `Connection: close`, and a text body that says what
    /// was wrong (`MockServer: 400 Bad Request: malformed request: a chunk size is not hexadecimal: zz`).
    package static func response(for error: FramingError) -> HTTPResponse {
        let (code, reason) = status(for: error)
        let body = Array("MockServer: \(code) \(reason): \(error)\n".utf8)
        return HTTPResponse(status: code, reason: reason,
                            headers: ["Content-Type": "text/plain; charset=utf-8", "Connection": "close"], body: body)
    }
}
