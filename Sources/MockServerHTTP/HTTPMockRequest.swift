import MockServerCore

/// One HTTP/1.x request as the server received it: parsed once by the server and handed to every
/// responder, with the bytes exactly as sent kept for patterns.
public struct HTTPMockRequest: Sendable {
    /// Where the body lies in the request's bytes: one range, or one per chunk of a chunked body.
    package enum BodyLayout: Sendable {
        case range(Range<Int>)
        case chunks([Range<Int>])
    }

    /// The request's fields, in one reference-counted box: a request is handed from the parser to
    /// the responders, the transcript and the answer, and a copy of a dozen reference-counted
    /// fields costs a retain and a release for each, a copy of the box one.
    private final class Storage: Sendable {
        let method: String
        let target: String
        let path: String
        let query: String?
        let version: String
        let headers: HTTPHeaderFields
        let input: InputUnit
        let body: BodyLayout
        let wantsKeepAlive: Bool

        init(method: String, target: String, version: String, headers: HTTPHeaderFields, input: InputUnit, body: BodyLayout, wantsKeepAlive: Bool) {
            self.method = method
            self.target = target
            self.version = version
            self.headers = headers
            self.input = input
            self.body = body
            self.wantsKeepAlive = wantsKeepAlive
            if let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) {
                path = String(target[..<mark])
                query = String(target[target.utf8.index(after: mark)...])
            } else {
                path = target
                query = nil
            }
        }
    }

    private let storage: Storage

    /// The method, such as `GET`.
    public var method: String { storage.method }
    /// The request target as sent: `/a/b?x=1`, or an absolute URL.
    public var target: String { storage.target }
    /// The target's path, without the query (`/a/b`), percent-encoding kept.
    public var path: String { storage.path }
    /// The query after `?`, without it; `nil` when the target has none.
    public var query: String? { storage.query }
    /// The protocol version, such as `HTTP/1.1`.
    public var version: String { storage.version }
    /// The header fields in order.
    public var headers: HTTPHeaderFields { storage.headers }
    /// The whole request as sent (chunk framing included), as bytes and as text.
    public var input: InputUnit { storage.input }

    /// The request's bytes exactly as sent.
    public var raw: [UInt8] { storage.input.bytes }

    /// The body, de-chunked when it was sent chunked. Copied from the request's bytes on each use.
    public var body: [UInt8] {
        let bytes = storage.input.bytes
        switch storage.body {
        case .range(let range):
            return Array(bytes[range])
        case .chunks(let ranges):
            var data: [UInt8] = []
            data.reserveCapacity(ranges.reduce(0) { $0 + $1.count })
            for range in ranges { data.append(contentsOf: bytes[range]) }
            return data
        }
    }

    /// Whether the body is empty.
    public var hasBody: Bool {
        switch storage.body {
        case .range(let range): !range.isEmpty
        case .chunks(let ranges): ranges.contains { !$0.isEmpty }
        }
    }

    package init(method: String, target: String, version: String, headers: HTTPHeaderFields, input: InputUnit, body: BodyLayout) {
        storage = Storage(method: method, target: target, version: version, headers: headers, input: input, body: body,
                          wantsKeepAlive: Self.persistence(version: version, headers: headers))
    }

    /// Creates a request whose parser found no `Connection` field, so that the fields are not
    /// searched again: it keeps the connection open when it is HTTP/1.1 (RFC 9112 §9.3), as the
    /// parser says with `isHTTP11`.
    package init(method: String, target: String, version: String, headers: HTTPHeaderFields, input: InputUnit, body: BodyLayout,
                 withoutConnectionField isHTTP11: Bool) {
        storage = Storage(method: method, target: target, version: version, headers: headers, input: input, body: body,
                          wantsKeepAlive: isHTTP11)
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
    public var wantsKeepAlive: Bool { storage.wantsKeepAlive }

    /// The value of the header `name` (any case), or `nil`.
    public func header(_ name: String) -> String? { headers[name] }

    fileprivate static func persistence(version: String, headers: HTTPHeaderFields) -> Bool {
        if headers.hasToken("close", in: "Connection") { return false }
        if version != "HTTP/1.1" { return headers.hasToken("keep-alive", in: "Connection") }
        return true
    }
}
