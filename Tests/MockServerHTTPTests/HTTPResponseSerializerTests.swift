import Testing
import MockServerHTTP

/// The head the serializer says a client reads is the head a client does read from its bytes.
@Suite("HTTP response serializer")
struct HTTPResponseSerializerTests {
    private func request(_ method: String, version: String = "HTTP/1.1", connection: String? = nil) throws -> HTTPMockRequest {
        var parser = HTTPRequestParser()
        parser.append(Array("\(method) /x \(version)\r\nHost: h\r\n\(connection.map { "Connection: \($0)\r\n" } ?? "")\r\n".utf8))
        return try #require(try parser.next())
    }

    /// What HTTPResponseParser reads from `bytes`.
    private func read(_ bytes: [UInt8], method: String) throws -> (HTTPResponseHead?, [UInt8]) {
        var parser = HTTPResponseParser(requestMethod: method)
        var head: HTTPResponseHead?
        var body: [UInt8] = []
        for event in try parser.append(bytes) + parser.finish() {
            switch event {
            case .head(let read): head = read
            case .body(let piece): body += piece
            case .end: break
            }
        }
        return (head, body)
    }

    static let responses: [HTTPMockResponse] = [
        HTTPMockResponse(status: 200, body: Array("ok\n".utf8)),
        HTTPMockResponse(status: 201, reason: "Made  It ", headers: ["X-Space": "  padded\t", "Content-Type": "text/plain"], body: Array("{}".utf8)),
        HTTPMockResponse(status: 204),
        HTTPMockResponse(status: 304, headers: ["ETag": "\"1\""]),
        HTTPMockResponse(status: 404, reason: "", body: Array("gone".utf8)),
        HTTPMockResponse(status: 500, headers: ["Content-Length": "4"], body: Array("oops".utf8)),
        HTTPMockResponse(status: 200, headers: ["Connection": "close"], body: [0xFF, 0x00]),
        HTTPMockResponse(status: 599, headers: ["X-Empty": ""]),
    ]

    @Test("a status without a reason phrase keeps the space after its code (RFC 9112 §4)")
    func emptyReason() {
        let bytes = HTTPResponseSerializer.serialize(HTTPMockResponse(status: 299, reason: "", body: []), for: nil).bytes
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 299 \r\n"))
    }

    @Test("a known head is the head read back, for GET, HEAD and a closing HTTP/1.0 client", arguments: responses)
    func knownHeads(response: HTTPMockResponse) throws {
        for request in [try request("GET"), try request("HEAD"), try request("head"), try request("GET", version: "HTTP/1.0"),
                        try request("GET", connection: "close")] {
            let written = HTTPResponseSerializer.serializeWithHead(response, for: request)
            #expect(written.bytes == HTTPResponseSerializer.serialize(response, for: request).bytes)
            let head = try #require(written.head, "\(response.status) for \(request.method)")
            let (readHead, readBody) = try read(written.bytes, method: request.method)
            #expect(readHead == head, "\(response.status) for \(request.method) \(request.version)")
            #expect(readBody == written.body, "\(response.status) for \(request.method) \(request.version)")
        }
    }

    @Test("no head is claimed where a reader could see another: interim status, framing of the response's own, line breaks")
    func unknownHeads() throws {
        let get = try request("GET")
        for response in [
            HTTPMockResponse(status: 100),
            HTTPMockResponse(status: 200, headers: ["Transfer-Encoding": "chunked"], body: Array("3\r\nabc\r\n0\r\n\r\n".utf8)),
            HTTPMockResponse(status: 200, headers: ["Content-Length": "10"], body: Array("short".utf8)),
            HTTPMockResponse(status: 200, headers: ["X-Split": "a\r\nX-Injected: b"]),
            HTTPMockResponse(status: 200, headers: ["Bad:Name": "v"]),
            HTTPMockResponse(statusLine: "HTTP/1.1 200 OK"),
        ] {
            #expect(HTTPResponseSerializer.serializeWithHead(response, for: get).head == nil, "\(response.headers)")
        }
    }

    @Test("a number is written as String spells it", arguments: [0, 7, 10, 200, 999, 1234, -5, Int.max, Int.min])
    func decimal(value: Int) {
        var output = Array("x".utf8)
        HTTPResponseSerializer.appendDecimal(value, to: &output)
        #expect(String(decoding: output, as: UTF8.self) == "x\(value)")
    }

    @Test("a body of 16 KiB or more is left out of the head and sent as the response's own array, then a chunked body's end; the pieces are the whole answer's bytes",
          arguments: [0, 100, HTTPResponseSerializer.sharedBodySize - 1, HTTPResponseSerializer.sharedBodySize, 100_000])
    func sharedBody(size: Int) throws {
        let body = (0..<size).map { UInt8(truncatingIfNeeded: $0) }
        var withTrailers = HTTPMockResponse(status: 200, body: body)
        withTrailers.trailers = ["Checksum": "abc"]
        let responses = [HTTPMockResponse(status: 200, headers: ["Content-Type": "application/octet-stream"], body: body), withTrailers,
                         HTTPMockResponse(status: 204, body: body), HTTPMockResponse(status: 200, headers: ["Content-Length": "\(size)"], body: body)]
        for response in responses {
            for request in [try request("GET"), try request("HEAD"), try request("GET", version: "HTTP/1.0"), try request("GET", connection: "close"), nil] {
                let whole = HTTPResponseSerializer.serialize(response, for: request)
                let pieces = HTTPResponseSerializer.serializeSharingBody(response, for: request)
                let sent = pieces.sharesBody ? pieces.bytes + response.body + pieces.tail : pieces.bytes
                let label = "\(response.status) \(response.trailers.fields.count) trailers, \(request?.method ?? "no request") \(request?.version ?? "")"
                #expect(sent == whole.bytes, "\(label)")
                #expect(pieces.keepAlive == whole.keepAlive, "\(label)")
                let sendsBody = response.status != 204 && request?.method != "HEAD"
                #expect(pieces.sharesBody == (sendsBody && size >= HTTPResponseSerializer.sharedBodySize), "\(label)")
                if !pieces.sharesBody { #expect(pieces.tail.isEmpty, "\(label)") }
                if pieces.sharesBody { #expect(pieces.bytes.count < 200, "\(label): the head alone") }
            }
        }
    }
}
