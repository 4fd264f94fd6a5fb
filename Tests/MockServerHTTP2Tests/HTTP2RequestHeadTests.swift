import MockServerHTTP
@testable import MockServerHTTP2
import Testing

/// A stream's request fields made into the request HTTP/1.1 would give (RFC 9113 §8.3): the bytes
/// patterns and the transcript see, the headers, and each malformed field block's stream error.
@Suite("HTTP/2 request heads")
struct HTTP2RequestHeadTests {
    private func fields(_ pairs: [(String, String)]) -> [HPACKHeader] {
        pairs.map { HPACKHeader($0.0, $0.1) }
    }

    @Test("a GET: the request line, :authority as Host first, the fields in order")
    func get() throws {
        let request = try HTTP2RequestHead.request(fields: fields([(":method", "GET"), (":scheme", "http"), (":path", "/a?b=1"), (":authority", "example.com:8080"),
                                                                  ("accept", "*/*"), ("x-two", "1"), ("x-two", "2")]), body: [], streamID: 3)
        #expect(String(decoding: request.raw, as: UTF8.self)
            == "GET /a?b=1 HTTP/1.1\r\nHost: example.com:8080\r\naccept: */*\r\nx-two: 1\r\nx-two: 2\r\n\r\n")
        #expect(request.method == "GET")
        #expect(request.target == "/a?b=1")
        #expect(request.headers.values(for: "x-two") == ["1", "2"])
        #expect(request.body.isEmpty)
    }

    @Test("a body: its length added when the client gave none, and the bytes after the head")
    func body() throws {
        let request = try HTTP2RequestHead.request(fields: fields([(":method", "POST"), (":path", "/up"), ("host", "h")]), body: Array("hello".utf8), streamID: 1)
        #expect(String(decoding: request.raw, as: UTF8.self) == "POST /up HTTP/1.1\r\nhost: h\r\ncontent-length: 5\r\n\r\nhello")
        #expect(request.body == Array("hello".utf8))
        let given = try HTTP2RequestHead.request(fields: fields([(":method", "POST"), (":path", "/"), ("content-length", "2")]), body: [1, 2], streamID: 1)
        #expect(given.headers.values(for: "content-length") == ["2"])
    }

    @Test("a host field keeps :authority out; cookies are joined into one field at the end")
    func hostAndCookies() throws {
        let request = try HTTP2RequestHead.request(fields: fields([(":method", "GET"), (":path", "/"), (":authority", "a"), ("cookie", "x=1"), ("host", "b"), ("cookie", "y=2")]),
                                                   body: [], streamID: 5)
        #expect(String(decoding: request.raw, as: UTF8.self) == "GET / HTTP/1.1\r\nhost: b\r\ncookie: x=1; y=2\r\n\r\n")
    }

    @Test("bytes that are not UTF-8 are repaired the same in the headers and the request's bytes")
    func notUTF8() throws {
        let request = try HTTP2RequestHead.request(fields: [HPACKHeader(":method", "GET"), HPACKHeader(":path", "/"), HPACKHeader(name: Array("x".utf8), value: [0x61, 0xFF])],
                                                   body: [], streamID: 1)
        #expect(request.headers["x"] == "a\u{FFFD}")
        #expect(String(decoding: request.raw, as: UTF8.self) == "GET / HTTP/1.1\r\nx: a\u{FFFD}\r\n\r\n")
    }

    /// Field blocks a request may not have, and the reason each one's stream error gives.
    static let malformedBlocks: [(fields: [(String, String)], reason: String)] = [
        ([(":method", "GET"), ("accept", "*/*"), (":path", "/")], "the pseudo-header :path on stream 7 comes after a regular field"),
        ([(":method", "GET"), (":path", "/"), (":status", "200")], "an unknown pseudo-header :status on stream 7"),
        ([(":method", "GET"), (":path", "/"), ("Accept", "*/*")], "the field Accept on stream 7 is not allowed in HTTP/2"),
        ([(":method", "GET"), (":path", "/"), ("x-Ä", "1")], "the field x-Ä on stream 7 is not allowed in HTTP/2"),
        ([(":method", "GET"), (":path", "/"), ("connection", "close")], "the field connection on stream 7 is not allowed in HTTP/2"),
        ([(":method", "GET"), (":path", "/"), ("transfer-encoding", "chunked")], "the field transfer-encoding on stream 7 is not allowed in HTTP/2"),
        ([(":method", "GET")], "stream 7's request has no :method or :path"),
        ([(":method", "GET"), (":path", "")], "stream 7's request has no :method or :path"),
    ]

    @Test("malformed field blocks are stream errors that name the field", arguments: malformedBlocks)
    func malformed(pairs: [(String, String)], reason: String) {
        #expect {
            _ = try HTTP2RequestHead.request(fields: fields(pairs), body: [], streamID: 7)
        } throws: { error in
            guard let error = error as? HTTP2Error else { return false }
            return error.code == .protocolError && error.scope == .stream(7) && error.reason == reason
        }
    }

    @Test("a lower-case name outside ASCII is allowed, as is CONNECT without a path")
    func allowed() throws {
        _ = try HTTP2RequestHead.request(fields: fields([(":method", "GET"), (":path", "/"), ("x-é", "1")]), body: [], streamID: 1)
        _ = try HTTP2RequestHead.request(fields: fields([(":method", "CONNECT"), (":path", ""), (":authority", "h:1")]), body: [], streamID: 1)
    }
}
