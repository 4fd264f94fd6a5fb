@testable import MockServerHTTP2
import Testing

/// A stream's request fields judged as RFC 9113 §8 asks, without sockets: a well-formed request
/// becomes the HTTP/1.1 request it stands for; a malformed one is a stream error (PROTOCOL_ERROR)
/// whose reason names the fault.
@Suite("HTTP/2 request head")
struct HTTP2RequestHeadTests {
    private static let get: [(String, String)] = [(":method", "GET"), (":scheme", "http"), (":path", "/a"), (":authority", "localhost")]

    private static func fields(_ pairs: [(String, String)]) -> [HPACKHeader] {
        pairs.map { HPACKHeader($0.0, $0.1) }
    }

    /// The reason a request of `pairs` (and `body`) is refused, or nil when it is accepted.
    private static func refusal(_ pairs: [(String, String)], body: [UInt8] = []) -> String? {
        do {
            _ = try HTTP2RequestHead.request(fields: fields(pairs), body: body, streamID: 3)
            return nil
        } catch {
            #expect(error.code == .protocolError && error.scope == .stream(3))
            return error.reason
        }
    }

    @Test("well formed: the HTTP/1.1 request it stands for, :authority as Host, cookies joined, content-length kept")
    func wellFormed() throws {
        let request = try HTTP2RequestHead.request(fields: Self.fields(Self.get + [("cookie", "a=1"), ("cookie", "b=2"), ("content-length", "2"), ("te", "trailers")]),
                                                   body: [0x68, 0x69], streamID: 1)
        #expect(request.input.text == "GET /a HTTP/1.1\r\nHost: localhost\r\ncontent-length: 2\r\nte: trailers\r\ncookie: a=1; b=2\r\n\r\nhi")
        #expect(try HTTP2RequestHead.request(fields: Self.fields([(":method", "CONNECT"), (":authority", "example.com:443")]), body: [], streamID: 1).target == "example.com:443")
        #expect(Self.refusal([(":method", "GET"), (":scheme", "http"), (":path", "/"), ("host", "localhost")]) == nil, "Host without :authority")
        #expect(Self.refusal(Self.get + [("host", "localhost")]) == nil, "Host equal to :authority")
        #expect(Self.refusal(Self.get + [("x-empty", "")]) == nil, "an empty value")
    }

    @Test("malformed (§8.1.1, §8.2, §8.3): the reason names the fault", arguments: [
        (get + [("X-Upper", "1")], "\"X-Upper\" on stream 3 is not a lower-case token"),
        (get + [("x y", "1")], "\"x y\" on stream 3 is not a lower-case token"),
        (get + [("", "1")], "\"\" on stream 3 is not a lower-case token"),
        (get + [("x-a", "1\r\nx-b: 2")], "the value of x-a on stream 3 has NUL, CR, LF or white space at an end"),
        (get + [("x-a", "1\t")], "the value of x-a on stream 3 has NUL, CR, LF or white space at an end"),
        (get + [("transfer-encoding", "chunked")], "the connection-specific field transfer-encoding on stream 3 is not allowed in HTTP/2"),
        (get + [("te", "gzip")], "te on stream 3 is not \"trailers\""),
        ([(":method", "GET"), ("x-a", "1"), (":path", "/")], "stream 3's request is malformed: the pseudo-header :path comes after a regular field"),
        (get + [(":status", "200")], "stream 3's request is malformed: an unknown pseudo-header :status"),
        ([(":path", "/b")] + get, "stream 3's request is malformed: :path twice"),
        ([(":scheme", "http"), (":path", "/")], "stream 3's request is malformed: no :method"),
        ([(":method", "GET"), (":path", "/")], "stream 3's request is malformed: no :scheme"),
        ([(":method", "GET"), (":scheme", "http")], "stream 3's request is malformed: no :path"),
        ([(":method", "GET"), (":scheme", "http"), (":path", "")], "stream 3's request is malformed: an empty :path"),
        ([(":method", "CONNECT")], "stream 3's request is malformed: a CONNECT without :authority"),
        (get + [("host", "elsewhere")], "stream 3's request is malformed: Host elsewhere is not its :authority localhost"),
        (get + [("content-length", "3")], "stream 3's request is malformed: content-length 3 with 0 bytes of DATA"),
        (get + [("content-length", "0"), ("content-length", "1")], "stream 3's request is malformed: content-length 0, 1 with 0 bytes of DATA"),
        (get + [("content-length", "x")], "stream 3's request is malformed: content-length x with 0 bytes of DATA"),
    ] as [([(String, String)], String)])
    func malformed(pairs: [(String, String)], reason: String) {
        let refusal = Self.refusal(pairs)
        #expect(refusal?.hasSuffix(reason) == true, "\(refusal ?? "accepted")")
    }

    @Test("trailers (§8.1): regular fields only, each one HTTP/2 allows")
    func trailers() throws {
        try HTTP2RequestHead.checkTrailers(Self.fields([("grpc-status", "0"), ("x-sum", "abc")]), streamID: 5)
        #expect(throws: HTTP2Error(.protocolError, stream: 5, "stream 5's trailers carry the pseudo-header :path")) {
            try HTTP2RequestHead.checkTrailers(Self.fields([(":path", "/")]), streamID: 5)
        }
        #expect(throws: HTTP2Error.self) { try HTTP2RequestHead.checkTrailers(Self.fields([("Upper", "1")]), streamID: 5) }
    }

    @Test("the bytes written directly: the request line, :authority as Host first, the fields in order, a body's length added")
    func requestBytes() throws {
        let get = try HTTP2RequestHead.request(fields: Self.fields([(":method", "GET"), (":scheme", "http"), (":path", "/a?b=1"), (":authority", "example.com:8080"),
                                                                    ("accept", "*/*"), ("x-two", "1"), ("x-two", "2")]), body: [], streamID: 3)
        #expect(String(decoding: get.raw, as: UTF8.self) == "GET /a?b=1 HTTP/1.1\r\nHost: example.com:8080\r\naccept: */*\r\nx-two: 1\r\nx-two: 2\r\n\r\n")
        #expect(get.headers.values(for: "x-two") == ["1", "2"])
        #expect(get.body.isEmpty)
        let post = try HTTP2RequestHead.request(fields: Self.fields([(":method", "POST"), (":scheme", "http"), (":path", "/up"), ("host", "h")]), body: Array("hello".utf8), streamID: 1)
        #expect(String(decoding: post.raw, as: UTF8.self) == "POST /up HTTP/1.1\r\nhost: h\r\ncontent-length: 5\r\n\r\nhello")
        #expect(post.body == Array("hello".utf8))
    }

    @Test("a value that is not UTF-8 is repaired the same in the headers and the request's bytes")
    func notUTF8() throws {
        let request = try HTTP2RequestHead.request(fields: Self.fields([(":method", "GET"), (":scheme", "http"), (":path", "/")]) + [HPACKHeader(name: Array("x".utf8), value: [0x61, 0xFF])],
                                                   body: [], streamID: 1)
        #expect(request.headers["x"] == "a\u{FFFD}")
        #expect(String(decoding: request.raw, as: UTF8.self) == "GET / HTTP/1.1\r\nx: a\u{FFFD}\r\n\r\n")
    }

    @Test("a response's field names are lowered byte by byte, and through their text outside ASCII")
    func lowercasedNames() {
        #expect(HTTP2RequestHead.lowercasedName("Content-Type") == Array("content-type".utf8))
        #expect(HTTP2RequestHead.lowercasedName("x-ok") == Array("x-ok".utf8))
        #expect(HTTP2RequestHead.lowercasedName("X-Ä") == Array("x-ä".utf8))
    }
}
