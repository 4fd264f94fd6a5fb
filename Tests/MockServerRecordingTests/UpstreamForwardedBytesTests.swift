import Foundation
import Testing
import MockServerHTTP
@testable import MockServerRecording

/// The bytes a request goes upstream as: each form of target under the upstream's base path, `Host`
/// the upstream's, hop-by-hop fields dropped, a body with its length.
@Suite("Recording: a request's bytes as forwarded")
struct UpstreamForwardedBytesTests {
    private func forwarded(_ request: String, to upstream: String) throws -> String {
        let parsed = try #require(HTTPMockRequest(parsing: Array(request.utf8)))
        let upstream = try HTTPUpstream(url: try #require(URL(string: upstream)))
        return String(decoding: upstream.forwardedBytes(of: parsed), as: UTF8.self)
    }

    @Test("each form of target, with and without a base path", arguments: [
        ("GET /a/b?c=1 HTTP/1.1\r\nHost: x\r\n\r\n", "http://127.0.0.1:8080", "GET /a/b?c=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n"),
        ("GET /a/b?c=1 HTTP/1.1\r\nHost: x\r\n\r\n", "http://127.0.0.1:8080/api/", "GET /api/a/b?c=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n"),
        ("GET http://x:1/p?q HTTP/1.1\r\nHost: x:1\r\n\r\n", "http://127.0.0.1:8080/api", "GET /api/p?q HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n"),
        ("GET http://x HTTP/1.1\r\nHost: x\r\n\r\n", "http://127.0.0.1", "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"),
        ("OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n", "http://127.0.0.1:8080", "OPTIONS /* HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n"),
    ])
    func targets(request: String, upstream: String, expected: String) throws {
        #expect(try forwarded(request, to: upstream) == expected)
    }

    @Test("hop-by-hop fields go, the others stay in order, and a body goes with its length")
    func fields() throws {
        let request = "POST /n HTTP/1.1\r\nHost: x\r\nConnection: keep-alive, X-Hop\r\nX-Hop: 1\r\nAccept: */*\r\nContent-Length: 2\r\nX-Tail: t\r\n\r\nhi"
        #expect(try forwarded(request, to: "https://localhost") == "POST /n HTTP/1.1\r\nHost: localhost\r\nAccept: */*\r\nX-Tail: t\r\nContent-Length: 2\r\n\r\nhi")
    }
}
