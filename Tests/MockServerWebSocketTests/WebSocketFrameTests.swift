import Testing
import TestSupport
import MockServerWebSocket

/// RFC 6455's framing (section 5) as pure code: bytes in any pieces, frames out, and every rule a
/// server must enforce failing with its close code.
@Suite("WebSocket frames", .cpuBound)
struct WebSocketFrameTests {
    private let mask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]

    private func frames(_ bytes: [UInt8], pieceSize: Int = .max, limit: Int = 1 << 20) throws -> [WebSocketFrame] {
        var parser = WebSocketFrameParser(maximumPayload: limit)
        var result: [WebSocketFrame] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + pieceSize)
            parser.append(bytes[offset..<end])
            offset = end
            while let frame = try parser.next() { result.append(frame) }
        }
        return result
    }

    private func failure(_ bytes: [UInt8], limit: Int = 1 << 20) -> WebSocketProtocolError? {
        do {
            _ = try frames(bytes, limit: limit)
            return nil
        } catch {
            return error as? WebSocketProtocolError
        }
    }

    @Test("SHA-1 of the FIPS 180 examples and the RFC's handshake example")
    func sha1() {
        let hex = { (bytes: [UInt8]) in bytes.map { String(format: "%02x", $0) }.joined() }
        #expect(hex(SHA1.digest(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(hex(SHA1.digest([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(hex(SHA1.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))) == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(hex(SHA1.digest([UInt8](repeating: 0x61, count: 1_000_000))) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
        // RFC 6455, section 1.3.
        #expect(WebSocketHandshake.acceptValue(for: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test("the RFC's examples (section 5.7), whole and one byte at a time", arguments: [1, 2, 3, Int.max])
    func rfcExamples(pieceSize: Int) throws {
        // A masked "Hello", then a fragmented unmasked-in-the-RFC one re-masked, then a ping.
        let hello = WebSocketFrame(opcode: .text, payload: Array("Hello".utf8)).encoded(mask: mask)
        #expect(hello == [0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58])
        let first = WebSocketFrame(fin: false, opcode: .text, payload: Array("Hel".utf8)).encoded(mask: mask)
        let last = WebSocketFrame(fin: true, opcode: .continuation, payload: Array("lo".utf8)).encoded(mask: mask)
        let ping = WebSocketFrame(opcode: .ping, payload: Array("Hello".utf8)).encoded(mask: mask)
        let parsed = try frames(hello + first + ping + last, pieceSize: pieceSize)
        #expect(parsed.map(\.payload) == [Array("Hello".utf8), Array("Hel".utf8), Array("Hello".utf8), Array("lo".utf8)])
        #expect(parsed.map(\.opcode) == [1, 1, 9, 0])
        #expect(parsed.map(\.fin) == [true, false, true, true])
        // The server's own frames are unmasked.
        #expect(WebSocketFrame(opcode: .text, payload: Array("Hello".utf8)).encoded() == [0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f])
    }

    @Test("an idle parser holds no buffer: every frame read was taken; a partial frame keeps its bytes until it is whole")
    func idleHoldsNoBuffer() throws {
        var parser = WebSocketFrameParser(maximumPayload: 1 << 20)
        #expect(!parser.holdsStorage)
        let hello = WebSocketFrame(opcode: .text, payload: Array("Hello".utf8)).encoded(mask: mask)
        parser.append(hello + hello.prefix(3))
        #expect(try parser.next()?.payload == Array("Hello".utf8))
        #expect(try parser.next() == nil)
        #expect(parser.holdsStorage && parser.bufferedCount == 3)
        parser.append(hello.dropFirst(3))
        #expect(try parser.next()?.payload == Array("Hello".utf8))
        #expect(parser.holdsStorage, "taken, but not yet asked for more")
        #expect(try parser.next() == nil)
        #expect(!parser.holdsStorage)
        #expect(parser.bufferedCount == 0)
        // The next read starts a buffer anew.
        parser.append(hello)
        #expect(try parser.next()?.payload == Array("Hello".utf8))
    }

    @Test("16-bit and 64-bit lengths, at their edges", arguments: [125, 126, 65535, 65536, 200_000])
    func lengths(count: Int) throws {
        let payload = (0..<count).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let bytes = WebSocketFrame(opcode: .binary, payload: payload).encoded(mask: mask)
        #expect(bytes[1] & 0x7F == (count < 126 ? UInt8(count) : count < 65536 ? 126 : 127))
        let parsed = try frames(bytes, pieceSize: 4096)
        #expect(parsed.count == 1 && parsed.first?.payload == payload)
    }

    @Test("what a server must refuse, with the RFC's close code")
    func refusals() {
        let unmasked = WebSocketFrame(opcode: .text, payload: Array("hi".utf8)).encoded()
        #expect(failure(unmasked)?.code == .protocolError)
        #expect(failure(WebSocketFrame(reserved: 4, opcode: 1, payload: []).encoded(mask: mask))?.code == .protocolError)
        #expect(failure(WebSocketFrame(opcode: 3, payload: []).encoded(mask: mask))?.reason == "opcode 3 is reserved")
        #expect(failure(WebSocketFrame(fin: false, opcode: .ping, payload: []).encoded(mask: mask))?.code == .protocolError)
        #expect(failure(WebSocketFrame(opcode: .ping, payload: [UInt8](repeating: 1, count: 126)).encoded(mask: mask))?.code == .protocolError)
        #expect(failure(WebSocketFrame(opcode: .binary, payload: [UInt8](repeating: 1, count: 101)).encoded(mask: mask), limit: 100)?.code == .messageTooBig)
        // A length with its top bit set: refused from the header alone.
        #expect(failure([0x82, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 0])?.code == .protocolError)
        // A huge declared length is refused before its payload is waited for.
        #expect(failure([0x82, 0xFF, 0, 0, 0, 1, 0, 0, 0, 0])?.code == .messageTooBig)
    }

    @Test("messages: fragments joined around control frames, UTF-8 checked, limits kept, close frames checked")
    func assembly() throws {
        var assembler = WebSocketMessageAssembler(maximumMessageLength: 10)
        #expect(try assembler.take(WebSocketFrame(fin: false, opcode: .text, payload: Array("Hé".utf8).dropLast().map { $0 })) == nil)
        #expect(try assembler.take(WebSocketFrame(opcode: .ping, payload: [1])) == .ping([1]))
        // The "é" was split between fragments: only the whole message must be UTF-8.
        #expect(try assembler.take(WebSocketFrame(opcode: .continuation, payload: [0xA9])) == .message(.text("Hé")))
        #expect(try assembler.take(WebSocketFrame(opcode: .binary, payload: [0xFF])) == .message(.binary([0xFF])))

        func error(_ frames: [WebSocketFrame]) -> WebSocketProtocolError? {
            var assembler = WebSocketMessageAssembler(maximumMessageLength: 10)
            do {
                for frame in frames { _ = try assembler.take(frame) }
                return nil
            } catch {
                return error
            }
        }
        #expect(error([WebSocketFrame(opcode: .text, payload: [0xC3, 0x28])])?.code == .invalidPayload)
        #expect(error([WebSocketFrame(opcode: .continuation, payload: [1])])?.code == .protocolError)
        #expect(error([WebSocketFrame(fin: false, opcode: .text, payload: [0x61]), WebSocketFrame(opcode: .binary, payload: [1])])?.code == .protocolError)
        #expect(error([WebSocketFrame(fin: false, opcode: .binary, payload: Array(repeating: 1, count: 6)),
                       WebSocketFrame(opcode: .continuation, payload: Array(repeating: 1, count: 6))])?.code == .messageTooBig)
        #expect(error([WebSocketFrame(opcode: .close, payload: [0x03])])?.code == .protocolError)
        #expect(error([WebSocketFrame.close(WebSocketConnection.CloseCode(rawValue: 1005))])?.code == .protocolError)
        #expect(error([WebSocketFrame.close(WebSocketConnection.CloseCode(rawValue: 2999))])?.code == .protocolError)
        #expect(error([WebSocketFrame(opcode: .close, payload: [0x03, 0xE8, 0xFF])])?.code == .invalidPayload)
        #expect(error([WebSocketFrame.close(WebSocketConnection.CloseCode(rawValue: 4000), reason: "app")]) == nil)
        var closing = WebSocketMessageAssembler(maximumMessageLength: 10)
        #expect(try closing.take(WebSocketFrame.close(.goingAway, reason: "bye")) == .close(.goingAway, reason: "bye"))
        #expect(try closing.take(WebSocketFrame(opcode: .close, payload: [])) == .close(nil, reason: ""))
    }

    @Test("a close reason longer than a control frame allows is cut at a character boundary")
    func longReason() {
        let frame = WebSocketFrame.close(.normal, reason: String(repeating: "é", count: 100))
        #expect(frame.payload.count <= 125)
        #expect(String(validating: frame.payload[2...], as: UTF8.self) != nil)
    }
}
