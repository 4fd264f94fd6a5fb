import MockServerHTTP2
import Testing

/// Frames (RFC 9113 §4, §6): what the writer writes, the reader reads back, whatever the split; each
/// malformed frame answered with the RFC's code and scope.
@Suite("HTTP/2 frames")
struct HTTP2FrameTests {
    /// One of each frame the reader returns, padding and priority included.
    static let frames: [HTTP2Frame] = [
        HTTP2Frame(streamID: 0, .settings([HTTP2Setting(.maxConcurrentStreams, 100), HTTP2Setting(.initialWindowSize, 1 << 20),
                                           HTTP2Setting(.maxFrameSize, 16_777_215), HTTP2Setting(HTTP2Setting.Identifier(rawValue: 0x7777), 9)], ack: false)),
        HTTP2Frame(streamID: 0, .settings([], ack: true)),
        HTTP2Frame(streamID: 1, .headers(block: hex("8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff"), endStream: false, endHeaders: false,
                                         priority: HTTP2Priority(exclusive: true, dependency: 0, weight: 200), padding: 3)),
        HTTP2Frame(streamID: 1, .continuation(block: hex("be"), endHeaders: true)),
        HTTP2Frame(streamID: 1, .data(Array("hello".utf8), endStream: false, padding: 0)),
        HTTP2Frame(streamID: 1, .data([], endStream: true)),
        HTTP2Frame(streamID: 3, .headers(block: hex("82"), endStream: true, endHeaders: true)),
        HTTP2Frame(streamID: 5, .priority(HTTP2Priority(exclusive: false, dependency: 3, weight: 15))),
        HTTP2Frame(streamID: 3, .rstStream(.cancel)),
        HTTP2Frame(streamID: 3, .rstStream(HTTP2ErrorCode(rawValue: 0xABCD))),
        HTTP2Frame(streamID: 0, .ping(0x0102_0304_0506_0708, ack: false)),
        HTTP2Frame(streamID: 0, .ping(0xFFFF_FFFF_FFFF_FFFF, ack: true)),
        HTTP2Frame(streamID: 0, .windowUpdate(increment: 0x7FFF_FFFF)),
        HTTP2Frame(streamID: 7, .windowUpdate(increment: 1)),
        HTTP2Frame(streamID: 9, .unknown(HTTP2FrameType(rawValue: 0xBB), flags: HTTP2FrameFlags(rawValue: 0xFF), length: 12)),
        HTTP2Frame(streamID: 0, .goAway(lastStreamID: 7, code: .enhanceYourCalm, debugData: Array("slow down".utf8))),
    ]

    static func written(_ frames: [HTTP2Frame]) -> [UInt8] {
        var bytes: [UInt8] = []
        for frame in frames { HTTP2FrameWriter.write(frame, into: &bytes) }
        return bytes
    }

    /// Reads every frame of `chunks`, fed one after the other.
    static func read(_ chunks: [[UInt8]], expectingPreface: Bool = false, maximumFrameSize: Int = 16_384) throws(HTTP2Error) -> [HTTP2Frame] {
        var reader = HTTP2FrameReader(expectingPreface: expectingPreface, maximumFrameSize: maximumFrameSize)
        var frames: [HTTP2Frame] = []
        for chunk in chunks {
            reader.append(chunk)
            while let frame = try reader.nextFrame() { frames.append(frame) }
        }
        #expect(reader.buffered == 0)
        return frames
    }

    /// The one frame `header` and `payload` make, or its error.
    static func parse(_ header: String, _ payload: String = "") throws(HTTP2Error) -> HTTP2Frame? {
        try read([hex(header) + hex(payload)]).first
    }

    @Test("the writer's bytes: SETTINGS ACK, PING, WINDOW_UPDATE, RST_STREAM and a padded DATA as the RFC lays them out")
    func exactBytes() {
        #expect(Self.written([HTTP2Frame(streamID: 0, .settings([], ack: true))]) == hex("000000 04 01 00000000"))
        #expect(Self.written([HTTP2Frame(streamID: 0, .ping(1, ack: true))]) == hex("000008 06 01 00000000 0000000000000001"))
        #expect(Self.written([HTTP2Frame(streamID: 3, .windowUpdate(increment: 65_535))]) == hex("000004 08 00 00000003 0000ffff"))
        #expect(Self.written([HTTP2Frame(streamID: 3, .rstStream(.refusedStream))]) == hex("000004 03 00 00000003 00000007"))
        #expect(Self.written([HTTP2Frame(streamID: 1, .data([0x61], endStream: true, padding: 2))]) == hex("000004 00 09 00000001 02 61 0000"))
        #expect(Self.written([HTTP2Frame(streamID: 0, .settings([HTTP2Setting(.enablePush, 0)], ack: false))]) == hex("000006 04 00 00000000 0002 00000000"))
    }

    @Test("every frame type round-trips, read in one piece, byte by byte, and split at every offset")
    func roundTripsAnySplit() throws {
        let bytes = HTTP2FrameReader.clientPreface + Self.written(Self.frames)
        #expect(try Self.read([bytes], expectingPreface: true) == Self.frames)
        #expect(try Self.read(bytes.map { [$0] }, expectingPreface: true) == Self.frames)
        for split in 1..<bytes.count {
            #expect(try Self.read([Array(bytes[..<split]), Array(bytes[split...])], expectingPreface: true) == Self.frames, "split at \(split)")
        }
    }

    @Test("the reserved bit of a stream identifier is ignored; a DATA frame counts its padding for flow control")
    func reservedBitAndFlowControlLength() throws {
        let frame = try Self.parse("000001 00 08 80000001", "00")
        #expect(frame == HTTP2Frame(streamID: 1, .data([], endStream: false, padding: 0)))
        #expect(frame?.flowControlledLength == 1)
        #expect(HTTP2Frame(streamID: 1, .data([1, 2, 3], endStream: false, padding: 10)).flowControlledLength == 14)
    }

    @Test("a frame past the maximum frame size is a FRAME_SIZE_ERROR as soon as its header is in; the maximum itself is fine")
    func maximumFrameSize() throws {
        var reader = HTTP2FrameReader(expectingPreface: false)
        reader.append(hex("004001 00 00 00000001"))
        #expect(throws: HTTP2Error(.frameSizeError, "a DATA frame of 16385 bytes, past the maximum frame size 16384")) { try reader.nextFrame() }
        let largest = Self.written([HTTP2Frame(streamID: 1, .data([UInt8](repeating: 7, count: 16_384), endStream: true))])
        #expect(try Self.read([largest]).count == 1)
        let larger = Self.written([HTTP2Frame(streamID: 1, .data([UInt8](repeating: 7, count: 100_000), endStream: true))])
        #expect(try Self.read([larger], maximumFrameSize: 100_000).count == 1)
    }

    @Test("the client preface: read in pieces; anything else is a PROTOCOL_ERROR on the connection")
    func clientPreface() throws {
        var reader = HTTP2FrameReader(expectingPreface: true)
        reader.append(Array(HTTP2FrameReader.clientPreface[..<10]))
        #expect(try reader.nextFrame() == nil)
        #expect(reader.state == .awaitingPreface(matched: 10))
        reader.append(Array(HTTP2FrameReader.clientPreface[10...]))
        #expect(try reader.nextFrame() == nil)
        #expect(reader.state == .readingFrames)
        var http1 = HTTP2FrameReader(expectingPreface: true)
        http1.append(Array("GET / HTTP/1.1\r\n".utf8))
        #expect(throws: HTTP2Error(.protocolError, "the connection does not start with the HTTP/2 client preface")) { try http1.nextFrame() }
        var early = HTTP2FrameReader(expectingPreface: true)
        early.append(Array("PRI * HTTP/2.0\r\n\r\nXX".utf8))
        #expect(throws: HTTP2Error.self) { try early.nextFrame() }
    }

    /// A malformed frame (header and payload in hex), and the code and scope of its error.
    static let malformed: [(header: String, payload: String, code: HTTP2ErrorCode, scope: HTTP2Error.Scope, what: String)] = [
        ("000000 00 00 00000000", "", .protocolError, .connection, "DATA on stream 0"),
        ("000002 00 08 00000001", "0200", .protocolError, .connection, "DATA with padding as long as its payload"),
        ("000000 00 08 00000001", "", .frameSizeError, .connection, "padded DATA without a pad length"),
        ("000001 01 04 00000000", "82", .protocolError, .connection, "HEADERS on stream 0"),
        ("000003 01 24 00000001", "000000", .frameSizeError, .connection, "HEADERS too short for its priority"),
        ("000004 01 0c 00000001", "0a828384", .protocolError, .connection, "HEADERS with more padding than payload"),
        ("000005 02 00 00000000", "0000000110", .protocolError, .connection, "PRIORITY on stream 0"),
        ("000004 02 00 00000003", "00000001", .frameSizeError, .stream(3), "PRIORITY of 4 bytes"),
        ("000005 02 00 00000003", "0000000310", .protocolError, .stream(3), "PRIORITY depending on its own stream"),
        ("000004 03 00 00000000", "00000008", .protocolError, .connection, "RST_STREAM on stream 0"),
        ("000003 03 00 00000001", "000008", .frameSizeError, .connection, "RST_STREAM of 3 bytes"),
        ("000006 04 00 00000001", "000300000064", .protocolError, .connection, "SETTINGS on a stream"),
        ("000006 04 01 00000000", "000300000064", .frameSizeError, .connection, "SETTINGS ACK with a payload"),
        ("000005 04 00 00000000", "0003000000", .frameSizeError, .connection, "SETTINGS of 5 bytes"),
        ("000006 04 00 00000000", "000200000002", .protocolError, .connection, "SETTINGS_ENABLE_PUSH of 2"),
        ("000006 04 00 00000000", "000480000000", .flowControlError, .connection, "SETTINGS_INITIAL_WINDOW_SIZE of 2^31"),
        ("000006 04 00 00000000", "000500003fff", .protocolError, .connection, "SETTINGS_MAX_FRAME_SIZE of 16383"),
        ("000006 04 00 00000000", "000501000000", .protocolError, .connection, "SETTINGS_MAX_FRAME_SIZE of 2^24"),
        ("000006 04 00 00000000", "000800000005", .protocolError, .connection, "SETTINGS_ENABLE_CONNECT_PROTOCOL of 5"),
        ("000005 05 04 00000001", "0000000282", .protocolError, .connection, "PUSH_PROMISE from a client"),
        ("000008 06 00 00000001", "0000000000000000", .protocolError, .connection, "PING on a stream"),
        ("000007 06 00 00000000", "00000000000000", .frameSizeError, .connection, "PING of 7 bytes"),
        ("000008 07 00 00000001", "0000000000000000", .protocolError, .connection, "GOAWAY on a stream"),
        ("000007 07 00 00000000", "00000000000000", .frameSizeError, .connection, "GOAWAY of 7 bytes"),
        ("000004 08 00 00000000", "00000000", .protocolError, .connection, "WINDOW_UPDATE of 0 on the connection"),
        ("000004 08 00 00000005", "80000000", .protocolError, .stream(5), "WINDOW_UPDATE of 0 on a stream (reserved bit set)"),
        ("000003 08 00 00000005", "000001", .frameSizeError, .connection, "WINDOW_UPDATE of 3 bytes"),
        ("000001 09 04 00000000", "82", .protocolError, .connection, "CONTINUATION on stream 0"),
    ]

    @Test("each malformed frame answers with the RFC's code, as a connection or a stream error")
    func malformedFrames() {
        for frame in Self.malformed {
            do {
                let parsed = try Self.parse(frame.header, frame.payload)
                Issue.record("\(frame.what): read as \(String(describing: parsed))")
            } catch {
                #expect(error.code == frame.code && error.scope == frame.scope, "\(frame.what): \(error)")
            }
        }
    }

    @Test("a stream error leaves the reader at the next frame; an unknown type is read past, its payload dropped")
    func readingGoesOn() throws {
        var reader = HTTP2FrameReader(expectingPreface: false)
        reader.append(hex("000004 02 00 00000003 00000001") + hex("000003 fa 07 00000001 010203") + hex("000000 04 01 00000000"))
        #expect(throws: HTTP2Error.self) { try reader.nextFrame() }
        #expect(try reader.nextFrame() == HTTP2Frame(streamID: 1, .unknown(HTTP2FrameType(rawValue: 0xFA), flags: HTTP2FrameFlags(rawValue: 7), length: 3)))
        #expect(try reader.nextFrame() == HTTP2Frame(streamID: 0, .settings([], ack: true)))
        #expect(try reader.nextFrame() == nil)
    }

    @Test("a field block past the maximum frame size goes out as HEADERS and CONTINUATIONs, END_HEADERS on the last")
    func fieldBlockSplitting() throws {
        let block = (0..<40_000).map { UInt8(truncatingIfNeeded: $0) }
        var bytes: [UInt8] = []
        HTTP2FrameWriter.writeFieldBlock(block, streamID: 5, endStream: true, maximumFrameSize: 16_384, into: &bytes)
        let frames = try Self.read([bytes])
        #expect(frames == [
            HTTP2Frame(streamID: 5, .headers(block: Array(block[..<16_384]), endStream: true, endHeaders: false)),
            HTTP2Frame(streamID: 5, .continuation(block: Array(block[16_384..<32_768]), endHeaders: false)),
            HTTP2Frame(streamID: 5, .continuation(block: Array(block[32_768...]), endHeaders: true)),
        ])
        var small: [UInt8] = []
        HTTP2FrameWriter.writeFieldBlock([0x82], streamID: 1, endStream: false, maximumFrameSize: 16_384, into: &small)
        #expect(small == hex("000001 01 04 00000001 82"))
    }

    @Test("error codes and types by the RFC's names; settings bounds at their edges; settings applied in order")
    func namesAndSettings() throws {
        #expect(HTTP2ErrorCode(name: "REFUSED_STREAM") == .refusedStream)
        #expect(HTTP2ErrorCode(name: "HTTP_1_1_REQUIRED") == .http11Required)
        #expect(HTTP2ErrorCode(name: "refused_stream") == nil)
        #expect(HTTP2ErrorCode.enhanceYourCalm.description == "ENHANCE_YOUR_CALM")
        #expect(HTTP2ErrorCode(rawValue: 0x1F).description == "0x1f")
        #expect(HTTP2FrameType.goAway.description == "GOAWAY" && HTTP2FrameType(rawValue: 0x10).description == "0x10")
        for setting in [HTTP2Setting(.maxFrameSize, 16_384), HTTP2Setting(.maxFrameSize, 16_777_215), HTTP2Setting(.initialWindowSize, 0x7FFF_FFFF),
                        HTTP2Setting(.enablePush, 1), HTTP2Setting(.headerTableSize, .max), HTTP2Setting(HTTP2Setting.Identifier(rawValue: 0x99), .max)] {
            #expect(throws: Never.self) { try setting.validate() }
        }
        var settings = HTTP2Settings()
        settings.apply([HTTP2Setting(.initialWindowSize, 10), HTTP2Setting(.maxConcurrentStreams, 5), HTTP2Setting(.initialWindowSize, 20),
                        HTTP2Setting(.enablePush, 0), HTTP2Setting(HTTP2Setting.Identifier(rawValue: 0x99), 1)])
        #expect(settings.initialWindowSize == 20 && settings.maxConcurrentStreams == 5 && !settings.enablePush)
        #expect(settings.maxFrameSize == 16_384 && settings.headerTableSize == 4096 && settings.maxHeaderListSize == nil)
    }
}
