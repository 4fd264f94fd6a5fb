import Testing
import TestSupport
import MockServerCore
import MockServerHTTP

@Suite("HTTP request framing", .cpuBound)
struct HTTPRequestParserTests {
    static let get = "GET /a HTTP/1.1\r\nHost: x\r\n\r\n"
    static let post = "POST /form HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\nhello world"
    static let chunked = "PUT /up HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n"
    static let lfOnly = "DELETE /d HTTP/1.0\nHost: x\n\n"
    static let stream = Array((get + post + "\r\n" + chunked + lfOnly).utf8)

    private func requests(_ bytes: [UInt8], chunk size: Int) throws -> [String] {
        var framer = HTTPRequestParser()
        var result: [String] = []
        var offset = 0
        while offset < bytes.count {
            framer.append(bytes[offset..<min(offset + size, bytes.count)])
            offset += size
            while let request = try framer.next() { result.append(String(decoding: request.raw, as: UTF8.self)) }
        }
        while let request = try framer.finish() { result.append(String(decoding: request.raw, as: UTF8.self)) }
        return result
    }

    @Test("with nothing buffered, next() is nil at once and leaves the parser as it was: the next request, a bad one included, is read as ever")
    func nothingBuffered() throws {
        var parser = HTTPRequestParser()
        #expect(try parser.next() == nil)
        #expect(try parser.finish() == nil)
        #expect(!parser.isAwaitingHead)
        parser.append(Array(Self.get.utf8))
        #expect(try parser.next()?.target == "/a")
        #expect(try parser.next() == nil)
        #expect(parser.bufferedCount == 0)
        // A head whose body has not come is still waited on, not skipped as empty.
        parser.append(Array("POST /form HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\n".utf8))
        #expect(try parser.next() == nil)
        #expect(try parser.next() == nil)
        parser.append(Array("abc".utf8))
        #expect(try parser.next()?.body == Array("abc".utf8))
        #expect(try parser.next() == nil)
        // The request after an empty call still gets its checks.
        parser.append(Array("GET /a HTTP/1.1\r\nHost: a b\r\n\r\n".utf8))
        #expect(throws: FramingError.self) { try parser.next() }
    }

    @Test("pipelined requests come out whole and as sent, over every chunk size", arguments: 1...stream.count)
    func everyChunkSize(size: Int) throws {
        #expect(try requests(Self.stream, chunk: size) == [Self.get, Self.post, Self.chunked, Self.lfOnly])
    }

    @Test("a request's parts: method, target, path, query, version, headers in any case, de-chunked body", arguments: [1, 7, 1000])
    func parts(chunk: Int) throws {
        var parser = HTTPRequestParser()
        let bytes = Array("POST /a/b?x=1&y=2 HTTP/1.1\r\nX-Token:  abc \r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;e=1\r\nde\r\n0\r\n\r\n".utf8)
        var offset = 0
        var found: [HTTPMockRequest] = []
        while offset < bytes.count {
            parser.append(bytes[offset..<min(offset + chunk, bytes.count)])
            offset += chunk
            while let request = try parser.next() { found.append(request) }
        }
        let request = try #require(found.first)
        #expect(found.count == 1)
        #expect(request.method == "POST")
        #expect(request.target == "/a/b?x=1&y=2")
        #expect(request.path == "/a/b")
        #expect(request.query == "x=1&y=2")
        #expect(request.version == "HTTP/1.1")
        #expect(request.headers["x-token"] == "abc")
        #expect(request.headers["X-TOKEN"] == "abc")
        #expect(request.body == Array("abcde".utf8))
        #expect(!request.wantsKeepAlive)
        #expect(HTTPMockRequest(parsing: Array("GET / HTTP/1.0\r\nConnection: Keep-Alive".utf8))?.wantsKeepAlive == true)
        #expect(HTTPMockRequest(parsing: Array("NOOP".utf8)) == nil)
    }

    @Test("field names keep the spelling they were sent with, the commonest (made without decoding) and the rest")
    func fieldNameSpelling() throws {
        var parser = HTTPRequestParser()
        let head = "GET / HTTP/1.1\r\nhost: x\r\nUser-Agent: a\r\nuser-agent: b\r\nACCEPT: c\r\nAccept-Encodinx: d\r\nContent-Type: e\r\nX-Host: f\r\n\r\n"
        parser.append(Array(head.utf8)[...])
        let request = try #require(try parser.next())
        #expect(request.headers.map(\.name) == ["host", "User-Agent", "user-agent", "ACCEPT", "Accept-Encodinx", "Content-Type", "X-Host"])
        #expect(request.headers.map(\.value) == ["x", "a", "b", "c", "d", "e", "f"])
        #expect(request.headers["Host"] == "x" && request.headers["content-type"] == "e")
    }

    @Test("Expect: 100-continue hands out the waiting head once, split over every chunk size", arguments: 1...64)
    func expectContinue(chunk: Int) throws {
        let head = "PUT /big HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n"
        var framer = HTTPRequestParser()
        var heads: [[UInt8]] = []
        var bytes = Array(head.utf8)[...]
        while !bytes.isEmpty {
            framer.append(Array(bytes.prefix(chunk)))
            bytes = bytes.dropFirst(chunk)
            #expect(try framer.next() == nil)
            if let waiting = framer.takeHeadAwaitingContinue() { heads.append(waiting.raw) }
        }
        #expect(heads == [Array(head.utf8)])
        #expect(framer.takeHeadAwaitingContinue() == nil)
        framer.append(Array("bo".utf8))
        #expect(try framer.next() == nil)
        #expect(framer.takeHeadAwaitingContinue() == nil)
        framer.append(Array("dy".utf8))
        let request = try #require(try framer.next())
        #expect(request.raw == Array((head + "body").utf8))
        #expect(request.body == Array("body".utf8))
    }

    @Test("no waiting head when the body came with it, when there is no body, or without Expect", arguments: [
        "PUT /small HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\nok",
        "GET / HTTP/1.1\r\nExpect: 100-continue\r\n\r\n",
        "PUT /big HTTP/1.1\r\nContent-Length: 4\r\n\r\n",
    ])
    func noWaitingHead(request: String) throws {
        var framer = HTTPRequestParser()
        framer.append(Array(request.utf8))
        _ = try framer.next()
        #expect(framer.takeHeadAwaitingContinue() == nil)
    }

    @Test("bad requests are refused with a reason", arguments: [
        "GET /\r\n\r\n",
        "GET / HTTP/1.1\r\nContent-Length: ten\r\n\r\n",
        "GET / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
        "GET / HTTP/1.1\r\nbroken header\r\n\r\n",
        "POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n",
        "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n",
        "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n",
    ])
    func malformed(request: String) {
        var framer = HTTPRequestParser()
        framer.append(Array(request.utf8))
        #expect {
            _ = try framer.next()
            _ = try framer.finish()
        } throws: { error in
            if case FramingError.malformed(unit: "request", _) = error { true } else { false }
        }
    }

    @Test("targets and Host values nginx reads are still read: dot segments that stay inside, encoded dots in names, .. in the query, absolute-form, OPTIONS *, CONNECT's authority, an IPv6 Host", arguments: [
        ("GET /a/../b HTTP/1.1", "Host: x", "/a/../b"),
        ("GET /a/./b/.. HTTP/1.1", "Host: x", "/a/./b/.."),
        ("GET /a%2ebin/%2e%2e/c HTTP/1.1", "Host: x", "/a%2ebin/%2e%2e/c"),
        ("GET /..a/b.. HTTP/1.1", "Host: x", "/..a/b.."),
        ("GET /x?path=../../etc/passwd&n=%00 HTTP/1.1", "Host: x", "/x?path=../../etc/passwd&n=%00"),
        ("GET /%zz%4 HTTP/1.1", "Host: x", "/%zz%4"),
        ("GET HTTP://x:8080/a/../b HTTP/1.1", "Host: x", "HTTP://x:8080/a/../b"),
        ("GET http://x HTTP/1.1", "Host: x", "http://x"),
        ("OPTIONS * HTTP/1.1", "Host: x", "*"),
        ("CONNECT example.com:443 HTTP/1.1", "Host: example.com:443", "example.com:443"),
        ("GET / HTTP/1.1", "Host: [::1]:8080", "/"),
        ("GET / HTTP/1.1", "Host:", "/"),
    ])
    func acceptedTargets(line: String, host: String, target: String) throws {
        var parser = HTTPRequestParser()
        parser.append(Array("\(line)\r\n\(host)\r\n\r\n".utf8))
        #expect(try parser.next()?.target == target)
    }

    @Test("limits on the head and the body")
    func limits() {
        var head = HTTPRequestParser(maximumHeadLength: 100)
        head.append(Array(("GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 200)).utf8))
        #expect(throws: FramingError.headTooLong(limit: 100)) { try head.next() }
        var body = HTTPRequestParser(maximumBodyLength: 10)
        body.append(Array("POST / HTTP/1.1\r\nContent-Length: 11\r\n\r\n".utf8))
        #expect(throws: FramingError.bodyTooLong(limit: 10)) { try body.next() }
        var chunks = HTTPRequestParser(maximumBodyLength: 10)
        chunks.append(Array("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nff\r\n".utf8))
        #expect(throws: FramingError.bodyTooLong(limit: 10)) { try chunks.next() }
    }

    @Test("a connection that ends inside a request is an error; one that ends between requests is not")
    func endings() throws {
        var partial = HTTPRequestParser()
        partial.append(Array("POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nab".utf8))
        #expect(try partial.next() == nil)
        #expect(throws: FramingError.self) { try partial.finish() }
        var clean = HTTPRequestParser()
        clean.append(Array((Self.get + "\r\n").utf8))
        #expect(try clean.next() != nil)
        #expect(try clean.finish() == nil)
    }

    @Test("a large upload's buffer is let go once its request is out, and a pipelined one keeps what follows")
    func largeBufferLetGo() throws {
        var parser = HTTPRequestParser()
        let body = [UInt8](repeating: 0x61, count: 1 << 20)
        parser.append(Array("PUT /big HTTP/1.1\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body)
        let big = try #require(try parser.next())
        #expect(big.body == body)
        #expect(parser.bufferCapacity <= HTTPRequestParser.keptCapacity)
        parser.append(Array(Self.get.utf8))
        #expect(try parser.next().map { String(decoding: $0.raw, as: UTF8.self) } == Self.get)

        var pipelined = HTTPRequestParser()
        pipelined.append(Array("PUT /big HTTP/1.1\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body + Array(Self.get.utf8))
        #expect(try pipelined.next()?.body == body)
        #expect(try pipelined.next().map { String(decoding: $0.raw, as: UTF8.self) } == Self.get)
    }

    @Test("a request that came alone in one read takes the buffer as its bytes; once everything buffered is out, no buffer is kept")
    func idleParserHoldsNoBuffer() throws {
        var parser = HTTPRequestParser()
        parser.append(Array(Self.post.utf8))
        let post = try #require(try parser.next())
        #expect(String(decoding: post.raw, as: UTF8.self) == Self.post)
        #expect(post.body == Array("hello world".utf8))
        #expect(parser.bufferCapacity == 0)
        #expect(parser.bufferedCount == 0)

        // Pipelined: each request is a copy while others follow; the last one out lets the buffer go.
        parser.append(Array((Self.get + Self.chunked + Self.get).utf8))
        #expect(try parser.next().map { String(decoding: $0.raw, as: UTF8.self) } == Self.get)
        #expect(parser.bufferCapacity > 0)
        let chunked = try #require(try parser.next())
        #expect(String(decoding: chunked.raw, as: UTF8.self) == Self.chunked)
        #expect(chunked.body == Array("hello world".utf8))
        #expect(try parser.next().map { String(decoding: $0.raw, as: UTF8.self) } == Self.get)
        #expect(parser.bufferCapacity == 0)

        // A head whose body comes in a later read waits (out of line) and comes out whole.
        parser.append(Array("POST /form HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\nhello".utf8))
        #expect(try parser.next() == nil)
        parser.append(Array(" world".utf8))
        #expect(try parser.next().map { String(decoding: $0.raw, as: UTF8.self) } == Self.post)
        #expect(parser.bufferCapacity == 0)
        #expect(try parser.finish() == nil)
    }
}
