import Testing
import MockServerHTTP

/// Trailers on HTTP/1.1: the serializer's chunked trailer section, and the response parser reading it.
@Suite("HTTP trailers")
struct HTTPTrailersTests {
    private func request(version: String = "HTTP/1.1", method: String = "GET") throws -> HTTPMockRequest {
        var parser = HTTPRequestParser()
        parser.append(Array("\(method) /x \(version)\r\nHost: h\r\n\r\n".utf8))
        return try #require(try parser.next())
    }

    private var response: HTTPMockResponse {
        var response = HTTPMockResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Array("done".utf8))
        response.trailers = ["Checksum": "abc", "grpc-status": "0"]
        return response
    }

    @Test("HTTP/1.1: the body goes chunked, the trailers in its last chunk, announced by Trailer")
    func chunked() throws {
        let bytes = HTTPResponseSerializer.serialize(response, for: try request()).bytes
        #expect(String(decoding: bytes, as: UTF8.self) == "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\nTrailer: Checksum, grpc-status\r\n\r\n"
            + "4\r\ndone\r\n0\r\nChecksum: abc\r\ngrpc-status: 0\r\n\r\n")
        // The parser reads the body and the trailers back, in pieces of any size.
        for size in [1, 3, 7, bytes.count] {
            var parser = HTTPResponseParser(requestMethod: "GET")
            var body: [UInt8] = []
            var ended = false
            for start in stride(from: 0, to: bytes.count, by: size) {
                for event in try parser.append(Array(bytes[start..<min(bytes.count, start + size)])) {
                    if case .body(let piece) = event { body += piece }
                    if case .end = event { ended = true }
                }
            }
            #expect(ended && body == Array("done".utf8) && parser.trailers == ["Checksum": "abc", "grpc-status": "0"], "size \(size)")
        }
    }

    @Test("an empty body with trailers is only the last chunk; a HEAD gets the head alone")
    func emptyAndHead() throws {
        var empty = response
        empty.body = []
        #expect(String(decoding: HTTPResponseSerializer.serialize(empty, for: try request()).bytes, as: UTF8.self).hasSuffix("\r\n\r\n0\r\nChecksum: abc\r\ngrpc-status: 0\r\n\r\n"))
        let head = String(decoding: HTTPResponseSerializer.serialize(response, for: try request(method: "HEAD")).bytes, as: UTF8.self)
        #expect(head.hasSuffix("Trailer: Checksum, grpc-status\r\n\r\n"), "\(head)")
    }

    @Test("HTTP/1.0 cannot read chunks: the body with its length, no trailers")
    func http10() throws {
        let request = try request(version: "HTTP/1.0")
        #expect(HTTPResponseSerializer.dropsTrailers(response, for: request))
        let text = String(decoding: HTTPResponseSerializer.serialize(response, for: request).bytes, as: UTF8.self)
        #expect(text.contains("Content-Length: 4\r\n") && text.hasSuffix("\r\n\r\ndone") && !text.contains("Checksum"), "\(text)")
    }

    @Test("a streamed body ends with the trailers, announced on its head")
    func streamed() throws {
        var body = HTTPStreamedBody([.init("a")], end: .complete)
        body.trailers = ["X-Done": "yes"]
        #expect(body.head(for: HTTPMockResponse(status: 200)).headers["Trailer"] == "X-Done")
        guard case .send(let last) = body.steps.last else { Issue.record("no last chunk"); return }
        #expect(String(decoding: last, as: UTF8.self) == "0\r\nX-Done: yes\r\n\r\n")
    }

    @Test("a trailer line without a colon is malformed")
    func malformedTrailer() {
        var parser = HTTPResponseParser(requestMethod: "GET")
        #expect(throws: HTTPResponseParser.ParseError.malformed("trailer field \"oops\"")) {
            _ = try parser.append(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\noops\r\n\r\n".utf8))
        }
    }
}
