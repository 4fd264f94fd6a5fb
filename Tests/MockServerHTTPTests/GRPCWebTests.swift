import Testing
import MockServerCore
import MockServerHTTP

/// gRPC-Web's pure parts: its content types, the base64 of `-text`, trailer frames and their
/// reader, the answer's steps, the transcript's notes and the CORS fields.
@Suite("gRPC-Web")
struct GRPCWebTests {
    @Test("content types: gRPC-Web's four (any case, parameters dropped) and no other", arguments: [
        ("application/grpc-web", GRPCWebFormat.Encoding.binary as GRPCWebFormat.Encoding?, "application/grpc-web"),
        ("application/grpc-web+proto", .binary, "application/grpc-web+proto"),
        ("application/grpc-web-text", .text, "application/grpc-web-text"),
        ("Application/GRPC-Web-Text+proto; charset=utf-8", .text, "application/grpc-web-text+proto"),
        (" application/grpc-web+json ", .binary, "application/grpc-web+json"),
        ("application/grpc", nil, ""), ("application/grpc+proto", nil, ""), ("application/grpc-webby", nil, ""),
        ("application/grpc-web-textual", nil, ""), ("text/plain", nil, ""),
        ("\tAPPLICATION/GRPC-WEB", .binary, "application/grpc-web"), ("application/grpc-we", nil, ""), ("", nil, ""),
        ("application/grpc_web", nil, ""), ("application\u{0}grpc-web", nil, ""), ("applİcation/grpc-web", nil, ""),
    ])
    func format(type: String, encoding: GRPCWebFormat.Encoding?, answered: String) {
        let format = GRPCWebFormat(contentType: type)
        #expect(format?.encoding == encoding)
        if encoding != nil { #expect(format?.contentType == answered) }
    }

    @Test("base64: RFC 4648's test vectors, both ways", arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
    ])
    func base64(plain: String, text: String) throws {
        #expect(GRPCWebText.encode(Array(plain.utf8)) == Array(text.utf8))
        #expect(try GRPCWebText.decode(Array(text.utf8)) == Array(plain.utf8))
    }

    @Test("base64: every byte value and the alphabet's last two characters round-trip")
    func base64Bytes() throws {
        let bytes = (0...255).map(UInt8.init) + [0xFB, 0xFF, 0xBF]
        let text = GRPCWebText.encode(bytes)
        #expect(text.contains(UInt8(ascii: "+")) && text.contains(UInt8(ascii: "/")))
        #expect(try GRPCWebText.decode(text) == bytes)
    }

    @Test("a text body in several separately padded pieces reads as one run of bytes, however it is cut into pieces", arguments: [1, 2, 3, 4, 5, 7])
    func paddedPieces(size: Int) throws {
        let bytes = Array(GRPCMessageCodec.frame([0x08, 0x96, 0x01]) + GRPCMessageCodec.frame([]) + GRPCMessageCodec.frame(Array("hello".utf8)))
        var text: [UInt8] = []
        var start = 0
        while start < bytes.count {
            text += GRPCWebText.encode(Array(bytes[start ..< min(start + size, bytes.count)]))
            start += size
        }
        #expect(try GRPCWebText.decode(text) == bytes)
        #expect(try GRPCMessageCodec.messages(in: GRPCWebText.decode(text), encoding: nil) == [[0x08, 0x96, 0x01], [], Array("hello".utf8)])
    }

    @Test("text that is not base64: the error names where", arguments: [
        ("Zg=", GRPCWebTextError.incompleteGroup(length: 3)), ("Zm9v\r\n", .incompleteGroup(length: 6)),
        ("Z===", .misplacedPadding(offset: 1)), ("====", .misplacedPadding(offset: 0)), ("Zg=a", .misplacedPadding(offset: 2)),
        ("Zg==Z!==", .notBase64(offset: 5, byte: UInt8(ascii: "!"))), ("Zm 9", .notBase64(offset: 2, byte: 0x20)),
        ("Zm9-", .notBase64(offset: 3, byte: UInt8(ascii: "-"))),
    ])
    func badBase64(text: String, expected: GRPCWebTextError) {
        #expect(throws: expected) { try GRPCWebText.decode(Array(text.utf8)) }
    }

    @Test("the errors' text names the body, the offset and the byte")
    func badBase64Text() {
        #expect(GRPCWebTextError.notBase64(offset: 5, byte: 0x21).description == "grpc-web-text body: byte 0x21 at offset 5 is not a base64 character")
        #expect(GRPCWebTextError.incompleteGroup(length: 3).description.contains("3 characters"))
    }

    @Test("a trailer frame: flag 0x80, the length, then name:value lines with lower-case names")
    func trailerFrame() {
        let block = Array("grpc-status:5\r\ngrpc-message:no item 7%25\r\nx-shard:2\r\n".utf8)
        #expect(GRPCWebFrame.trailerFrame(["grpc-status": "5", "grpc-message": "no item 7%25", "X-Shard": "2"])
                == [0x80, 0, 0, 0, UInt8(block.count)] + block)
        #expect(GRPCWebAnswer.trailerFrame(status: 5, message: "no item 7%") == GRPCWebFrame.trailerFrame(["grpc-status": "5", "grpc-message": "no item 7%25"]))
        #expect(GRPCWebAnswer.trailerFrame(status: 0, message: nil) == [0x80, 0, 0, 0, 15] + Array("grpc-status:0\r\n".utf8))
    }

    @Test("the frame reader: messages, then the trailers (LF alone and spaces after the colon read too)")
    func readFrames() throws {
        // A last line without a line ending reads too.
        let trailers: [UInt8] = [0x80, 0, 0, 0, 30] + Array("grpc-status: 0\ngrpc-message:ok".utf8)
        let body = GRPCMessageCodec.frame([1, 2]) + GRPCMessageCodec.frame([]) + trailers
        #expect(try GRPCWebFrame.frames(in: body) == [.message([1, 2]), .message([]), .trailers(["grpc-status": "0", "grpc-message": "ok"])])
        #expect(try GRPCWebFrame.frames(in: []) == [])
        #expect(try GRPCWebFrame.frames(in: GRPCWebAnswer.trailerFrame(status: 3, message: "bad: x")) == [.trailers(["grpc-status": "3", "grpc-message": "bad: x"])])
    }

    @Test("a body that is not frames ending in trailers: the error names the frame", arguments: [
        ([0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0] as [UInt8], GRPCWebFrameError.afterTrailers(frame: 2)),
        ([0, 0, 0], .shortPrefix(frame: 1, count: 3)),
        ([0, 0, 0, 0, 3, 1], .lengthPastBody(frame: 1, length: 3, remaining: 1)),
        ([0x80, 0, 0, 0, 4] + Array("oops".utf8), .badTrailerLine(frame: 1, line: "oops")),
        ([0x80, 0, 0, 0, 3] + Array(":x\n".utf8), .badTrailerLine(frame: 1, line: ":x")),
    ])
    func badFrames(body: [UInt8], expected: GRPCWebFrameError) {
        #expect(throws: expected) { try GRPCWebFrame.frames(in: body) }
    }

    // MARK: - Answers

    /// The bytes and pauses the answer's steps send, as text.
    private func wire(_ steps: [ReplyStep<HTTPReplyOutput>], request: HTTPMockRequest?) -> [String] {
        steps.wireText(answering: request)
    }

    private func request(_ type: String, body: [UInt8] = [], headers: String = "") throws -> HTTPMockRequest {
        try #require(HTTPMockRequest(parsing: Array("POST /a.B/C HTTP/1.1\r\nHost: h\r\nContent-Type: \(type)\r\n\(headers)Content-Length: \(body.count)\r\n\r\n".utf8) + body))
    }

    /// A chunk of `bytes` as the body carries it.
    private func chunk(_ bytes: [UInt8]) -> String {
        String(bytes.count, radix: 16) + "\r\n" + String(decoding: bytes, as: UTF8.self) + "\r\n"
    }

    @Test("binary: the content type asked for, the messages as chunks after their delays, then the trailer frame; no HTTP trailers")
    func binaryAnswer() throws {
        let answer = GRPCAnswer(messages: [.init([1]), .init([2], delay: .milliseconds(50))], status: 0)
        let request = try request("application/grpc-web+proto")
        #expect(wire(answer.steps(for: request, delay: nil, headers: [:]), request: request) == [
            "HTTP/1.1 200 OK\r\ncontent-type: application/grpc-web+proto\r\nTransfer-Encoding: chunked\r\n\r\n",
            chunk([0, 0, 0, 0, 1, 1]), "pause 0.05 seconds", chunk([0, 0, 0, 0, 1, 2]),
            chunk(GRPCWebAnswer.trailerFrame(status: 0, message: nil)), "0\r\n\r\n",
        ])
    }

    @Test("text: each chunk is its frame in base64, padded")
    func textAnswer() throws {
        let answer = GRPCAnswer(messages: [.init([0x08, 0x07])], status: 0)
        let request = try request("application/grpc-web-text")
        let steps = wire(answer.steps(for: request, delay: nil, headers: [:]), request: request)
        #expect(steps == [
            "HTTP/1.1 200 OK\r\ncontent-type: application/grpc-web-text\r\nTransfer-Encoding: chunked\r\n\r\n",
            chunk(Array("AAAAAAIIBw==".utf8)), chunk(Array("gAAAAA9ncnBjLXN0YXR1czowDQo=".utf8)), "0\r\n\r\n",
        ])
        // What a client reads: the chunks' text end to end, decoded, is the binary answer's body.
        let text = Array("AAAAAAIIBw==gAAAAA9ncnBjLXN0YXR1czowDQo=".utf8)
        #expect(try GRPCWebFrame.frames(in: GRPCWebText.decode(text)) == [.message([0x08, 0x07]), .trailers(["grpc-status": "0"])])
    }

    @Test("an error without messages: 200 with the trailer frame as the whole body, nothing in the headers")
    func errorAnswer() throws {
        let answer = GRPCAnswer(messages: [], status: 5, message: "no item")
        let binary = try request("application/grpc-web")
        let frame = GRPCWebAnswer.trailerFrame(status: 5, message: "no item")
        #expect(wire(answer.steps(for: binary, delay: .milliseconds(20), headers: ["x-shard": "2"]), request: binary) == [
            "pause 0.02 seconds",
            "HTTP/1.1 200 OK\r\ncontent-type: application/grpc-web\r\nx-shard: 2\r\nContent-Length: \(frame.count)\r\n\r\n" + String(decoding: frame, as: UTF8.self),
        ])
        let text = try request("application/grpc-web-text+proto")
        let steps = wire(answer.steps(for: text, delay: nil, headers: [:]), request: text)
        #expect(steps.count == 1 && steps[0].hasSuffix("\r\n\r\n" + String(decoding: GRPCWebText.encode(frame), as: UTF8.self)), "\(steps)")
    }

    @Test("grpc-timeout as for gRPC: the deadline ends the answer with status 4 in the trailer frame; an unreadable one gets 13")
    func deadline() throws {
        let answer = GRPCAnswer(messages: [.init([1], delay: .milliseconds(10)), .init([2], delay: .seconds(5))], status: 0)
        let request = try request("application/grpc-web", headers: "grpc-timeout: 100m\r\n")
        #expect(wire(answer.steps(for: request, delay: nil, headers: [:]), request: request).dropFirst() == [
            "pause 0.01 seconds", chunk([0, 0, 0, 0, 1, 1]), "pause 0.09 seconds",
            chunk(GRPCWebAnswer.trailerFrame(status: 4, message: "deadline exceeded")), "0\r\n\r\n",
        ])
        let late = wire(answer.steps(for: request, delay: .seconds(1), headers: [:]), request: request)
        #expect(late.first == "pause 0.1 seconds" && late.last?.hasSuffix(String(decoding: GRPCWebAnswer.trailerFrame(status: 4, message: "deadline exceeded"), as: UTF8.self)) == true)
        let unreadable = try self.request("application/grpc-web", headers: "grpc-timeout: soon\r\n")
        let steps = wire(answer.steps(for: unreadable, delay: nil, headers: [:]), request: unreadable)
        #expect(steps.count == 1 && steps[0].contains("grpc-status:13\r\ngrpc-message:grpc-timeout \"soon\": "), "\(steps)")
    }

    @Test("a cross-origin call's answer allows its origin and exposes the status fields and the answer's own; none without Origin")
    func corsAnswer() throws {
        let answer = GRPCAnswer(messages: [.init([1])])
        let call = try request("application/grpc-web-text", headers: "Origin: http://127.0.0.1:8081\r\n")
        let head = wire(answer.steps(for: call, delay: nil, headers: ["X-Shard": "2"]), request: call)[0]
        #expect(head.contains("\r\nAccess-Control-Allow-Origin: http://127.0.0.1:8081\r\nVary: Origin\r\n"))
        #expect(head.contains("\r\nAccess-Control-Expose-Headers: grpc-status,grpc-message,grpc-status-details-bin,x-shard\r\n"))
        let plain = try request("application/grpc-web-text")
        #expect(!wire(answer.steps(for: plain, delay: nil, headers: [:]), request: plain)[0].contains("Access-Control"))
        // The answer's own CORS fields win.
        let own = GRPCWebCORS.answerFields(for: call, headers: ["Access-Control-Allow-Origin": "*"])
        #expect(own.map(\.name) == ["Access-Control-Expose-Headers"])
    }

    @Test("a preflight: 204 allowing the origin, POST, the fields asked for (or gRPC-Web's), and how long to keep it")
    func preflight() throws {
        let asked = try #require(HTTPMockRequest(parsing: Array(("OPTIONS /a.B/C HTTP/1.1\r\nHost: h\r\nOrigin: http://localhost:3000\r\n"
            + "Access-Control-Request-Method: post\r\nAccess-Control-Request-Headers: content-type,x-grpc-web,x-user-agent\r\n\r\n").utf8)))
        #expect(GRPCWebCORS.requestedMethod(of: asked) == "POST")
        let response = GRPCWebCORS.preflightResponse(to: asked)
        #expect(response.status == 204)
        #expect(response.headers["Access-Control-Allow-Origin"] == "http://localhost:3000")
        #expect(response.headers["Access-Control-Allow-Methods"] == "POST")
        #expect(response.headers["Access-Control-Allow-Headers"] == "content-type,x-grpc-web,x-user-agent")
        #expect(response.headers["Access-Control-Max-Age"] == "86400")
        let bare = try #require(HTTPMockRequest(parsing: Array("OPTIONS /a.B/C HTTP/1.1\r\nAccess-Control-Request-Method: POST\r\n\r\n".utf8)))
        #expect(GRPCWebCORS.preflightResponse(to: bare).headers["Access-Control-Allow-Origin"] == "*")
        #expect(GRPCWebCORS.preflightResponse(to: bare).headers["Access-Control-Allow-Headers"] == "content-type,x-grpc-web,x-user-agent,grpc-timeout")
        let options = try #require(HTTPMockRequest(parsing: Array("OPTIONS /a.B/C HTTP/1.1\r\nHost: h\r\n\r\n".utf8)))
        #expect(GRPCWebCORS.requestedMethod(of: options) == nil)
    }

    @Test("transcript notes: a text body's messages decoded, or why it is not base64")
    func notes() throws {
        let body = GRPCWebText.encode(GRPCMessageCodec.frame([0x08, 0x01])) + GRPCWebText.encode(GRPCMessageCodec.frame([0x08, 0x02]))
        let notes = Transcript.Note.grpcMessages(of: try request("application/grpc-web-text", body: body))
        #expect(notes.map(\.text) == ["<- gRPC message 1, 2 bytes: 0801", "<- gRPC message 2, 2 bytes: 0802"])
        let binary = Transcript.Note.grpcMessages(of: try request("application/grpc-web+proto", body: GRPCMessageCodec.frame([0x08, 0x01])))
        #expect(binary.map(\.text) == ["<- gRPC message 1, 2 bytes: 0801"])
        let bad = Transcript.Note.grpcMessages(of: try request("application/grpc-web-text", body: Array("AAAA!AAA".utf8)))
        #expect(bad.map(\.kind) == ["grpc-framing"] && bad.first?.text == "<- grpc-web-text body: byte 0x21 at offset 4 is not a base64 character")
    }
}
