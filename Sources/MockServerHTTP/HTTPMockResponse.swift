/// An HTTP response: status, headers and body. The server writes it with ``HTTPResponseSerializer``,
/// which adds `Content-Length` and the `Connection` header the request's persistence calls for.
public struct HTTPMockResponse: Sendable, Hashable {
    /// The status code, such as 200.
    public var status: Int
    /// The reason phrase, such as `OK`.
    public var reason: String
    /// The header fields, in order.
    public var headers: HTTPHeaderFields
    /// The body (left out on the wire for `HEAD` requests and for 1xx, 204 and 304 statuses).
    public var body: [UInt8]
    /// Fields sent after the body (gRPC's `grpc-status`, say): on HTTP/2 a closing HEADERS frame; on
    /// HTTP/1.1 a chunked body's trailer section. Empty for most responses.
    public var trailers: HTTPHeaderFields = [:]

    /// Creates a response; the reason defaults to the standard one for `status`.
    public init(status: Int = 200, reason: String? = nil, headers: HTTPHeaderFields = [:], body: [UInt8] = []) {
        self.status = status
        self.reason = reason ?? HTTPMockResponse.standardReason(for: status)
        self.headers = headers
        self.body = body
    }

    /// Creates a response from a status line's text, such as `404 Not Found` (a script's `status`):
    /// the leading number is the status and the rest the reason.
    public init(statusLine: String, headers: HTTPHeaderFields = [:], body: [UInt8] = []) {
        let digits = statusLine.prefix { $0.isASCII && $0.isNumber }
        if let code = Int(digits), !digits.isEmpty {
            status = code
            reason = String(statusLine.dropFirst(digits.count).drop { $0 == " " })
        } else {
            status = 0
            reason = statusLine
        }
        self.headers = headers
        self.body = body
    }

    /// `200 OK`: the status and the reason, as on the status line.
    public var statusLine: String {
        guard status > 0 else { return reason }
        return reason.isEmpty ? String(status) : "\(status) \(reason)"
    }

    /// Whether the status forbids a body: 1xx, 204 and 304.
    public var isBodiless: Bool { (100..<200).contains(status) || status == 204 || status == 304 }

    /// The reason phrase RFC 9110 gives `status`, or an empty one.
    public static func standardReason(for status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 101: "Switching Protocols"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 206: "Partial Content"
        case 207: "Multi-Status"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 409: "Conflict"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 423: "Locked"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: ""
        }
    }
}
