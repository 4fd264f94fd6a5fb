import Testing
import MockServerCore
import MockServerHTTP

/// gRPC's pure parts: length-prefixed messages, `grpc-timeout`, `grpc-message` and the answer's steps.
@Suite("gRPC codec")
struct GRPCCodecTests {
    @Test("a message gets a 5-byte prefix: flag 0, big-endian length")
    func frame() {
        #expect(GRPCMessageCodec.frame([0x08, 0x01]) == [0, 0, 0, 0, 2, 0x08, 0x01])
        #expect(GRPCMessageCodec.frame([]) == [0, 0, 0, 0, 0])
        #expect(GRPCMessageCodec.frame([UInt8](repeating: 7, count: 0x1_0203)).prefix(5) == [0, 0, 1, 2, 3])
    }

    @Test("a body of several messages splits into them, empty ones included")
    func split() throws {
        let body = GRPCMessageCodec.frame([1, 2, 3]) + GRPCMessageCodec.frame([]) + GRPCMessageCodec.frame([4])
        #expect(try GRPCMessageCodec.messages(in: body, encoding: nil) == [[1, 2, 3], [], [4]])
        #expect(try GRPCMessageCodec.messages(in: [], encoding: nil) == [])
    }

    @Test("a body that is not messages: the error names the message and the fault", arguments: [
        ([0, 0, 0] as [UInt8], nil as String?, GRPCFramingError.shortPrefix(message: 1, count: 3)),
        ([0, 0, 0, 0, 1, 9, 0, 0], nil, .shortPrefix(message: 2, count: 2)),
        ([0, 0, 0, 0, 4, 1, 2], nil, .lengthPastBody(message: 1, length: 4, remaining: 2)),
        ([0, 0xFF, 0xFF, 0xFF, 0xFF], nil, .lengthPastBody(message: 1, length: 0xFFFF_FFFF, remaining: 0)),
        ([1, 0, 0, 0, 1, 9], nil, .compressedWithoutEncoding(message: 1)),
        ([1, 0, 0, 0, 1, 9], "identity", .compressedWithoutEncoding(message: 1)),
        ([2, 0, 0, 0, 0], nil, .invalidFlag(message: 1, flag: 2)),
    ])
    func refused(body: [UInt8], encoding: String?, expected: GRPCFramingError) {
        #expect(throws: expected) { try GRPCMessageCodec.messages(in: body, encoding: encoding) }
    }

    @Test("a compressed message is kept as it came when the request names its encoding")
    func compressed() throws {
        #expect(try GRPCMessageCodec.messages(in: [1, 0, 0, 0, 1, 9], encoding: "gzip") == [[9]])
        #expect(GRPCFramingError.lengthPastBody(message: 2, length: 9, remaining: 1).description == "gRPC message 2: its prefix says 9 bytes but only 1 follow")
    }

    @Test("grpc-timeout: digits and a unit", arguments: [
        ("1H", Duration.seconds(3600)), ("2M", .seconds(120)), ("5S", .seconds(5)), ("100m", .milliseconds(100)),
        ("250u", .microseconds(250)), ("99999999n", .nanoseconds(99_999_999)), ("0S", .zero),
    ])
    func timeout(text: String, expected: Duration) throws {
        #expect(try GRPCTimeout.parse(text) == expected)
    }

    @Test("grpc-timeout that is not one: the error names the value and why", arguments: [
        ("", "empty"), ("100", "the unit is missing"), ("m", "no digits"), ("123456789S", "at most 8 digits, not 9"),
        ("10x", "the unit must be one of H M S m u n, not \"x\""), ("1.5S", "\"1.5\" is not a number"), ("-1S", "\"-1\" is not a number"),
        (" 1S", "\" 1\" is not a number"),
    ])
    func badTimeout(text: String, reason: String) {
        #expect {
            try GRPCTimeout.parse(text)
        } throws: { error in
            "\(error)".hasPrefix("grpc-timeout \"\(text)\": ") && "\(error)".contains(reason)
        }
    }

    @Test("grpc-message is percent-encoded as gRPC's spec says: bytes outside space..~, and %")
    func percentEncoding() {
        #expect(GRPCAnswer.percentEncoded("no item 7") == "no item 7")
        #expect(GRPCAnswer.percentEncoded("50% off\ncafé") == "50%25 off%0Acaf%C3%A9")
    }

    /// The bytes and pauses the answer's steps send, as text.
    private func wire(_ steps: [ReplyStep<HTTPReplyOutput>], request: HTTPMockRequest?) -> [String] {
        steps.wireText(answering: request)
    }

    private func request(timeout: String?) throws -> HTTPMockRequest {
        var parser = HTTPRequestParser()
        let header = timeout.map { "grpc-timeout: \($0)\r\n" } ?? ""
        parser.append(Array("POST /a.B/C HTTP/1.1\r\nHost: h\r\nContent-Type: application/grpc\r\n\(header)Content-Length: 0\r\n\r\n".utf8))
        return try #require(try parser.next())
    }

    @Test("messages as chunks after their delays, then the status as trailers")
    func streamed() throws {
        let answer = GRPCAnswer(messages: [.init([1]), .init([2], delay: .milliseconds(50))], status: 0)
        let request = try request(timeout: nil)
        #expect(wire(answer.steps(for: request, delay: nil, headers: [:]), request: request) == [
            "HTTP/1.1 200 OK\r\ncontent-type: application/grpc\r\nTransfer-Encoding: chunked\r\nTrailer: grpc-status\r\n\r\n",
            "6\r\n\0\0\0\0\u{1}\u{1}\r\n", "pause 0.05 seconds", "6\r\n\0\0\0\0\u{1}\u{2}\r\n", "0\r\ngrpc-status: 0\r\n\r\n",
        ])
    }

    @Test("an error without messages is trailers-only: the status in the headers, no body")
    func trailersOnly() throws {
        let request = try request(timeout: nil)
        #expect(wire(GRPCAnswer(messages: [], status: 5, message: "no item").steps(for: request, delay: nil, headers: [:]), request: request) == [
            "HTTP/1.1 200 OK\r\ncontent-type: application/grpc\r\ngrpc-status: 5\r\ngrpc-message: no item\r\nContent-Length: 0\r\n\r\n",
        ])
    }

    @Test("delays past grpc-timeout: the answer ends at the deadline with status 4")
    func deadline() throws {
        let answer = GRPCAnswer(messages: [.init([1], delay: .milliseconds(10)), .init([2], delay: .seconds(5))], status: 0)
        let request = try request(timeout: "100m")
        let steps = wire(answer.steps(for: request, delay: nil, headers: [:]), request: request)
        #expect(steps.dropFirst() == ["pause 0.01 seconds", "6\r\n\0\0\0\0\u{1}\u{1}\r\n", "pause 0.09 seconds",
                                      "0\r\ngrpc-status: 4\r\ngrpc-message: deadline exceeded\r\n\r\n"])
        // A wait before the head past the deadline: a trailers-only DEADLINE_EXCEEDED at the deadline.
        #expect(wire(answer.steps(for: request, delay: .seconds(1), headers: [:]), request: request).first == "pause 0.1 seconds")
        // Within the deadline, nothing changes.
        let relaxed = try self.request(timeout: "10S")
        #expect(wire(answer.steps(for: relaxed, delay: nil, headers: [:]), request: relaxed).last == "0\r\ngrpc-status: 0\r\n\r\n")
    }

    @Test("an unreadable grpc-timeout: a trailers-only INTERNAL naming it")
    func badTimeoutAnswer() throws {
        let request = try request(timeout: "soon")
        let steps = wire(GRPCAnswer(messages: [.init([1])]).steps(for: request, delay: nil, headers: [:]), request: request)
        #expect(steps.count == 1 && steps[0].contains("grpc-status: 13\r\ngrpc-message: grpc-timeout \"soon\": "), "\(steps)")
    }

    @Test("gRPC notes: one per message of a gRPC body, none for an empty body or another type")
    func grpcNotes() throws {
        let body = GRPCMessageCodec.frame([0x08, 0x01])
        func request(_ type: String, _ body: [UInt8]) throws -> HTTPMockRequest {
            try #require(HTTPMockRequest(parsing: Array("POST /s.S/M HTTP/1.1\r\nContent-Type: \(type)\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body))
        }
        #expect(Transcript.Note.grpcMessages(of: try request("application/grpc", body)).map(\.kind) == ["grpc-message"])
        #expect(Transcript.Note.grpcMessages(of: try request("application/grpc", [])).isEmpty)
        #expect(Transcript.Note.grpcMessages(of: try request("application/grpc+proto", [0, 0])).map(\.kind) == ["grpc-framing"])
        #expect(Transcript.Note.grpcMessages(of: try request("text/plain", body)).isEmpty)
    }
}
