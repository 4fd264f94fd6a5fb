import MockServerHTTP2
import Testing

/// DATA written straight into the output (the serving driver's way): the same frames as the frame
/// values would give, within the same windows.
@Suite("HTTP/2 DATA written into the output")
struct HTTP2SendDataTests {
    /// A connection with stream 1 open for a response, whose peer allows `window` on it and on the connection.
    private static func connection(window: UInt32, maxFrameSize: UInt32 = 16_384) throws -> HTTP2ServerConnection {
        var connection = try HTTP2ServerConnectionTests.connection(peer: [HTTP2Setting(.initialWindowSize, 0), HTTP2Setting(.maxFrameSize, maxFrameSize)])
        var client = HPACKEncoder()
        _ = try connection.receive(HTTP2ServerConnectionTests.headers(1, HTTP2ServerConnectionTests.request(encoder: &client)))
        _ = try connection.sendHeaders(fields([":status": "200"]), on: 1, endStream: false)
        _ = try connection.receive(HTTP2Frame(streamID: 0, .windowUpdate(increment: window)))
        _ = try connection.receive(HTTP2Frame(streamID: 1, .windowUpdate(increment: window)))
        return connection
    }

    private static func frames(_ bytes: [UInt8]) throws -> [HTTP2Frame] {
        var reader = HTTP2FrameReader(expectingPreface: false, maximumFrameSize: 1 << 24 - 1)
        reader.append(bytes)
        var frames: [HTTP2Frame] = []
        while let frame = try reader.nextFrame() { frames.append(frame) }
        return frames
    }

    @Test("the bytes written are the frames' bytes; the windows and END_STREAM as for frame values",
          arguments: [(100_000, 40_000), (5, 40_000), (40_000, 40_000), (100_000, 0)])
    func sameFrames(window: Int, size: Int) throws {
        let body = (0..<size).map { UInt8(truncatingIfNeeded: $0 * 7) }
        var values = try Self.connection(window: UInt32(window))
        var written = try Self.connection(window: UInt32(window))
        let expected = values.sendData(body[...], on: 1, endStream: true)
        var output: [UInt8] = [9, 9]
        let sent = written.sendData(body[...], on: 1, endStream: true, into: &output)
        #expect(sent == expected.sent)
        #expect(output.prefix(2) == [9, 9], "appended after what the output held")
        #expect(try Self.frames(Array(output.dropFirst(2))) == expected.frames)
        #expect(written.sendableBytes(on: 1) == values.sendableBytes(on: 1))
        #expect(written.state(of: 1) == values.state(of: 1))
    }

    @Test("a slice from the middle of a body, at the peer's larger frame size")
    func slice() throws {
        let body = [UInt8](repeating: 3, count: 100_000)
        var connection = try Self.connection(window: 100_000, maxFrameSize: 32_768)
        var output: [UInt8] = []
        #expect(connection.sendData(body[10_000..<80_000], on: 1, endStream: false, into: &output) == 70_000)
        let frames = try Self.frames(output)
        #expect(frames.map(\.flowControlledLength) == [32_768, 32_768, 4_464])
        #expect(frames.allSatisfy { if case .data(_, false, nil) = $0.payload { true } else { false } })
    }
}
