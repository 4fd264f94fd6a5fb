import MockServerCore

extension FramingError {
    /// An HTTP request line and headers grew past the limit.
    public static func headTooLong(limit: Int) -> FramingError { .tooLong(part: "request head", limit: limit) }
    /// An HTTP request body is longer than the limit.
    public static func bodyTooLong(limit: Int) -> FramingError { .tooLong(part: "request body", limit: limit) }
    /// Bytes that are not an HTTP/1.x request.
    public static func malformedRequest(_ reason: String) -> FramingError { .malformed(unit: "request", reason: reason) }
}
