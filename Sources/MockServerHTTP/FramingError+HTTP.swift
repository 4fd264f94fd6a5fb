import MockServerCore

extension FramingError {
    /// The part an over-long request head is reported as.
    static let headPart = "request head"
    /// The part an over-long request body is reported as.
    static let bodyPart = "request body"
    /// The part reported when the request bodies one HTTP/2 connection holds together (bodies still
    /// coming on its streams) pass the body limit (answered with `413`, as one body would be).
    package static let heldBodiesPart = "request bodies an HTTP/2 connection holds together"
    /// The part an over-long request line is reported as (answered with `414`).
    static let requestLinePart = "request line"
    /// How the reason for an HTTP version other than 1.0 and 1.1 begins.
    static let unsupportedVersionReason = "unsupported HTTP version"
    /// How the reason for a transfer coding other than `chunked` begins.
    static let unsupportedTransferCodingReason = "unsupported Transfer-Encoding"

    /// An HTTP request line and headers grew past the limit.
    public static func headTooLong(limit: Int) -> FramingError { .tooLong(part: headPart, limit: limit) }
    /// An HTTP request body is longer than the limit.
    public static func bodyTooLong(limit: Int) -> FramingError { .tooLong(part: bodyPart, limit: limit) }
    /// The request bodies one HTTP/2 connection holds together are longer than the limit.
    package static func heldBodiesTooLong(limit: Int) -> FramingError { .tooLong(part: heldBodiesPart, limit: limit) }
    /// Bytes that are not an HTTP/1.x request.
    public static func malformedRequest(_ reason: String) -> FramingError { .malformed(unit: "request", reason: reason) }
    /// A request line longer than the head's limit (answered with `414`).
    static func requestLineTooLong(limit: Int) -> FramingError { .tooLong(part: requestLinePart, limit: limit) }
    /// A request line whose version is `HTTP/x.y` but neither 1.0 nor 1.1 (answered with `505`).
    static func unsupportedVersion(_ version: String) -> FramingError {
        .malformedRequest("\(unsupportedVersionReason): \(version)")
    }
    /// A request whose `Transfer-Encoding` is not `chunked` (answered with `501`).
    static func unsupportedTransferCoding(_ value: String) -> FramingError {
        .malformedRequest("\(unsupportedTransferCodingReason): \(value)")
    }
}
