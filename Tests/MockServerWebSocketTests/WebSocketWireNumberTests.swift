import Testing
import MockServerWebSocket

/// The numbers a WebSocket peer sends, at the integer boundaries: 64-bit payload lengths, the sum of
/// a message's fragments, close frames' codes and sizes, and the handshake's length. Each is
/// refused with its close code (or status) before anything is added or allocated.
@Suite("WebSocket: numbers from the wire")
struct WebSocketWireNumberTests {
    /// A masked binary frame header declaring `length` with the 64-bit form, and no payload.
    private static func header(_ length: UInt64, opcode: UInt8 = 0x2, fin: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode, 0xFF]
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: length >> UInt64(shift))) }
        return bytes + [1, 2, 3, 4]
    }

    private static func failure(_ bytes: [UInt8], limit: Int) -> WebSocketProtocolError? {
        var parser = WebSocketFrameParser(maximumPayload: limit)
        parser.append(bytes)
        do {
            _ = try parser.next()
            return nil
        } catch {
            return error
        }
    }

    @Test("64-bit lengths: 2^63 and above are 1002, up to 2^63 - 1 past the limit 1009, from the header alone",
          arguments: [Int.max, 16 << 20, 0])
    func lengths(limit: Int) throws {
        for length: UInt64 in [1 << 63, (1 << 63) + 1, UInt64.max] {
            #expect(Self.failure(Self.header(length), limit: limit)?.reason == "a 64-bit payload length must have its top bit clear", "\(length)")
        }
        for length: UInt64 in [UInt64(Int.max), UInt64(Int.max) - 1, 1 << 32, 1 << 31] where length > UInt64(limit) {
            #expect(Self.failure(Self.header(length), limit: limit)?.code == .messageTooBig, "\(length)")
        }
        // Under a limit of Int.max, a length of 2^63 - 1 is taken: the parser waits for its payload
        // without reserving room for it.
        if limit == Int.max {
            var parser = WebSocketFrameParser(maximumPayload: limit)
            parser.append(Self.header(UInt64(Int.max)) + [0, 0, 0])
            #expect(try parser.next() == nil)
            #expect(parser.bufferedCount == 17)
        }
    }

    @Test("a negative limit takes nothing and traps nowhere")
    func negativeLimit() throws {
        #expect(Self.failure(Self.header(1), limit: -1)?.code == .messageTooBig)
        var parser = WebSocketFrameParser(maximumPayload: Int.min)
        parser.append(Self.header(0))
        #expect(try parser.next()?.payload == [])
        var assembler = WebSocketMessageAssembler(maximumMessageLength: -1)
        #expect(throws: WebSocketProtocolError.self) { try assembler.take(WebSocketFrame(opcode: .binary, payload: [1])) }
    }

    @Test("fragments: the room left is compared before adding, so that the limit holds exactly", arguments: [0, 1, 10])
    func fragments(limit: Int) throws {
        var assembler = WebSocketMessageAssembler(maximumMessageLength: limit)
        #expect(try assembler.take(WebSocketFrame(fin: false, opcode: .binary, payload: [])) == nil)
        for _ in 0..<limit { #expect(try assembler.take(WebSocketFrame(fin: false, opcode: .continuation, payload: [7])) == nil) }
        var full = assembler
        #expect(try full.take(WebSocketFrame(opcode: .continuation, payload: [])) == .message(.binary(Array(repeating: 7, count: limit))))
        #expect(throws: WebSocketProtocolError.self) { try assembler.take(WebSocketFrame(opcode: .continuation, payload: [7])) }
        // After the refusal, no message is open.
        #expect(!assembler.isInsideMessage)
        // A first fragment over the limit is refused by itself, too.
        var first = WebSocketMessageAssembler(maximumMessageLength: limit)
        #expect(throws: WebSocketProtocolError(.messageTooBig, "a message of \(limit + 1) bytes is longer than the \(limit) this server takes")) {
            try first.take(WebSocketFrame(fin: false, opcode: .text, payload: Array(repeating: 0x61, count: limit + 1)))
        }
    }

    @Test("close frames: no payload, a 1-byte payload, every code at the edges of the allowed ranges")
    func closeCodes() throws {
        func take(_ payload: [UInt8]) -> Result<WebSocketEvent?, WebSocketProtocolError> {
            var assembler = WebSocketMessageAssembler(maximumMessageLength: 10)
            do { return .success(try assembler.take(WebSocketFrame(opcode: .close, payload: payload))) } catch { return .failure(error) }
        }
        #expect(try take([]).get() == .close(nil, reason: ""))
        for byte: UInt8 in [0x00, 0x03, 0xFF] {
            #expect(throws: WebSocketProtocolError(.protocolError, "a close frame's payload of 1 byte cannot hold a status code")) { try take([byte]).get() }
        }
        let allowed: [UInt16] = [1000, 1003, 1007, 1014, 3000, 4999]
        let refused: [UInt16] = [0, 999, 1004, 1005, 1006, 1015, 2999, 5000, 0x7FFF, 0x8000, UInt16.max]
        for code in allowed {
            #expect(try take([UInt8(code >> 8), UInt8(code & 0xFF)]).get() == .close(WebSocketConnection.CloseCode(rawValue: code), reason: ""), "\(code)")
        }
        for code in refused {
            #expect(throws: WebSocketProtocolError(.protocolError, "close code \(code) may not be sent in a close frame")) {
                try take([UInt8(code >> 8), UInt8(code & 0xFF)]).get()
            }
        }
    }

    @Test("the handshake's head: its end found with CRLF or LF, and 431 past 16384 bytes naming the limit")
    func handshakeLength() throws {
        #expect(WebSocketHandshake.endOfHead(in: Array("GET / HTTP/1.1\r\n\r\nrest".utf8)) == 18)
        #expect(WebSocketHandshake.endOfHead(in: Array("GET / HTTP/1.1\n\nrest".utf8)) == 16)
        #expect(WebSocketHandshake.endOfHead(in: Array("GET / HTTP/1.1\r\nHost: x\r\n".utf8)) == nil)
        #expect(WebSocketHandshake.endOfHead(in: []) == nil)
        #expect(WebSocketHandshake.maximumLength == 16384)
        guard case .reject(let response, let reason) = WebSocketHandshake.tooLong(20480) else { Issue.record("not a refusal"); return }
        let text = String(decoding: response, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"))
        #expect(text.contains("Connection: close\r\n"))
        #expect(reason == "the opening request's head is 20480 bytes, longer than the 16384 bytes a WebSocket handshake may have")
        #expect(text.hasSuffix("\r\n\r\n" + reason + "\n"))
    }
}
