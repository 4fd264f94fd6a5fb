import Testing
@testable import MockServer

@Suite("HTTP request framing")
struct HTTPRequestFramerTests {
    static let get = "GET /a HTTP/1.1\r\nHost: x\r\n\r\n"
    static let post = "POST /form HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\nhello world"
    static let chunked = "PUT /up HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n"
    static let lfOnly = "DELETE /d HTTP/1.0\nHost: x\n\n"
    static let stream = Array((get + post + "\r\n" + chunked + lfOnly).utf8)

    private func requests(_ bytes: [UInt8], chunk size: Int) throws -> [String] {
        var framer = HTTPRequestFramer()
        var result: [String] = []
        var offset = 0
        while offset < bytes.count {
            framer.append(bytes[offset..<min(offset + size, bytes.count)])
            offset += size
            while let request = try framer.next() { result.append(String(decoding: request, as: UTF8.self)) }
        }
        while let request = try framer.finish() { result.append(String(decoding: request, as: UTF8.self)) }
        return result
    }

    @Test("pipelined requests come out whole and as sent, over every chunk size", arguments: 1...stream.count)
    func everyChunkSize(size: Int) throws {
        #expect(try requests(Self.stream, chunk: size) == [Self.get, Self.post, Self.chunked, Self.lfOnly])
    }

    @Test("Expect: 100-continue hands out the waiting head once, split over every chunk size", arguments: 1...64)
    func expectContinue(chunk: Int) throws {
        let head = "PUT /big HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n"
        var framer = HTTPRequestFramer()
        var heads: [[UInt8]] = []
        var bytes = Array(head.utf8)[...]
        while !bytes.isEmpty {
            framer.append(Array(bytes.prefix(chunk)))
            bytes = bytes.dropFirst(chunk)
            #expect(try framer.next() == nil)
            if let waiting = framer.takeHeadAwaitingContinue() { heads.append(waiting) }
        }
        #expect(heads == [Array(head.utf8)])
        #expect(framer.takeHeadAwaitingContinue() == nil)
        framer.append(Array("bo".utf8))
        #expect(try framer.next() == nil)
        #expect(framer.takeHeadAwaitingContinue() == nil)
        framer.append(Array("dy".utf8))
        #expect(try framer.next() == Array((head + "body").utf8))
    }

    @Test("no waiting head when the body came with it, when there is no body, or without Expect", arguments: [
        "PUT /small HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\nok",
        "GET / HTTP/1.1\r\nExpect: 100-continue\r\n\r\n",
        "PUT /big HTTP/1.1\r\nContent-Length: 4\r\n\r\n",
    ])
    func noWaitingHead(request: String) throws {
        var framer = HTTPRequestFramer()
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
        var framer = HTTPRequestFramer()
        framer.append(Array(request.utf8))
        #expect {
            _ = try framer.next()
            _ = try framer.finish()
        } throws: { error in
            if case FramingError.malformedRequest = error { true } else { false }
        }
    }

    @Test("limits on the head and the body")
    func limits() {
        var head = HTTPRequestFramer(maximumHeadLength: 100)
        head.append(Array(("GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 200)).utf8))
        #expect(throws: FramingError.headTooLong(limit: 100)) { try head.next() }
        var body = HTTPRequestFramer(maximumBodyLength: 10)
        body.append(Array("POST / HTTP/1.1\r\nContent-Length: 11\r\n\r\n".utf8))
        #expect(throws: FramingError.bodyTooLong(limit: 10)) { try body.next() }
        var chunks = HTTPRequestFramer(maximumBodyLength: 10)
        chunks.append(Array("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nff\r\n".utf8))
        #expect(throws: FramingError.bodyTooLong(limit: 10)) { try chunks.next() }
    }

    @Test("a connection that ends inside a request is an error; one that ends between requests is not")
    func endings() throws {
        var partial = HTTPRequestFramer()
        partial.append(Array("POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nab".utf8))
        #expect(try partial.next() == nil)
        #expect(throws: FramingError.self) { try partial.finish() }
        var clean = HTTPRequestFramer()
        clean.append(Array((Self.get + "\r\n").utf8))
        #expect(try clean.next() != nil)
        #expect(try clean.finish() == nil)
    }

    @Test("the scheme picks the framing, and the framing key overrides it")
    func framingChoice() throws {
        #expect(try ResponseScript(json: #"{"scheme": "webdav", "responses": {}}"#).framing == .requests)
        #expect(try ResponseScript(json: #"{"scheme": "ftp", "responses": {}}"#).framing == .lines)
        #expect(try ResponseScript(json: #"{"responses": {}}"#).framing == .lines)
        #expect(try ResponseScript(json: #"{"scheme": "http", "framing": "raw", "responses": {}}"#).framing == .raw)
        #expect(throws: ResponseFileError.self) { try ResponseScript(json: #"{"framing": "words", "responses": {}}"#) }
    }
}
