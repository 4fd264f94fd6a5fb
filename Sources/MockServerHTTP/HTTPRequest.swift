import MockServerCore

/// One HTTP/1.x request as the server received it: parsed once by the server and handed to every
/// responder, with the bytes exactly as sent kept for patterns.
public struct HTTPRequest: Sendable {
    /// The method, such as `GET`.
    public let method: String
    /// The request target as sent: `/a/b?x=1`, or an absolute URL.
    public let target: String
    /// The target's path, without the query (`/a/b`), percent-encoding kept.
    public let path: String
    /// The query after `?`, without it; `nil` when the target has none.
    public let query: String?
    /// The protocol version, such as `HTTP/1.1`.
    public let version: String
    /// The header fields in order.
    public let headers: HTTPHeaders
    /// The whole request as sent (chunk framing included), as bytes and as text.
    public let input: InputUnit
    /// Where the body's data lies in ``input``'s bytes: one range, or one per chunk.
    private let bodyRanges: [Range<Int>]

    /// The request's bytes exactly as sent.
    public var raw: [UInt8] { input.bytes }

    /// The body, de-chunked when it was sent chunked. Copied from the request's bytes on each use.
    public var body: [UInt8] {
        if bodyRanges.count == 1, let range = bodyRanges.first { return Array(input.bytes[range]) }
        var data: [UInt8] = []
        data.reserveCapacity(bodyRanges.reduce(0) { $0 + $1.count })
        for range in bodyRanges { data.append(contentsOf: input.bytes[range]) }
        return data
    }

    /// Whether the body is empty.
    public var hasBody: Bool { bodyRanges.contains { !$0.isEmpty } }

    package init(method: String, target: String, version: String, headers: HTTPHeaders, input: InputUnit, bodyRanges: [Range<Int>]) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.input = input
        self.bodyRanges = bodyRanges
        self.wantsKeepAlive = Self.persistence(version: version, headers: headers)
        if let mark = target.firstIndex(of: "?") {
            path = String(target[..<mark])
            query = String(target[target.index(after: mark)...])
        } else {
            path = target
            query = nil
        }
    }

    /// Parses one complete request, as a pattern's input holds it; a head without its blank line
    /// is accepted too. `nil` when the bytes are not an HTTP request.
    public init?(parsing bytes: [UInt8]) {
        var parser = HTTPRequestParser()
        parser.append(bytes)
        if let request = try? parser.finish() {
            self = request
            return
        }
        var closed = HTTPRequestParser()
        closed.append(bytes + [0x0D, 0x0A, 0x0D, 0x0A])
        guard let request = try? closed.next() else { return nil }
        self = request
    }

    /// Whether the client keeps the connection open after the answer, by RFC 9112 §9.3: HTTP/1.1
    /// unless it sent `Connection: close`; HTTP/1.0 only with `Connection: keep-alive`.
    public let wantsKeepAlive: Bool

    private static func persistence(version: String, headers: HTTPHeaders) -> Bool {
        if headers.hasToken("close", in: "Connection") { return false }
        if version != "HTTP/1.1" { return headers.hasToken("keep-alive", in: "Connection") }
        return true
    }
}
