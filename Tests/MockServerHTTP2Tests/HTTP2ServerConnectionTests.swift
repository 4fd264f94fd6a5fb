import MockServerHTTP2
import Testing

/// The server's connection state machine, without sockets: frames in, events and frames out.
@Suite("HTTP/2 server connection")
struct HTTP2ServerConnectionTests {
    /// A started connection that has read the client's SETTINGS (with `peer`) and acknowledged its own.
    static func connection(_ local: HTTP2Settings = HTTP2Settings(), peer: [HTTP2Setting] = []) throws -> HTTP2ServerConnection {
        var connection = HTTP2ServerConnection(settings: local)
        _ = connection.start()
        _ = try connection.receive(HTTP2Frame(streamID: 0, .settings(peer, ack: false)))
        _ = try connection.receive(HTTP2Frame(streamID: 0, .settings([], ack: true)))
        return connection
    }

    /// A request's field block, from a client's encoder.
    static func request(_ path: String = "/", encoder: inout HPACKEncoder) -> [UInt8] {
        var block: [UInt8] = []
        encoder.encode(fields([":method": "GET", ":scheme": "http", ":path": path, ":authority": "localhost"]), into: &block)
        return block
    }

    static func headers(_ stream: UInt32, _ block: [UInt8], endStream: Bool = true, endHeaders: Bool = true, priority: HTTP2Priority? = nil) -> HTTP2Frame {
        HTTP2Frame(streamID: stream, .headers(block: block, endStream: endStream, endHeaders: endHeaders, priority: priority))
    }

    /// The RST_STREAM code the events send, if any.
    static func reset(in events: [HTTP2ServerConnection.Event]) -> HTTP2ErrorCode? {
        for case let .send(frame) in events { if case let .rstStream(code) = frame.payload { return code } }
        return nil
    }

    @Test("start: SETTINGS with what differs from the RFC's values, and a WINDOW_UPDATE for a larger connection window")
    func start() {
        var settings = HTTP2Settings()
        settings.maxConcurrentStreams = 100
        settings.enablePush = false
        var connection = HTTP2ServerConnection(settings: settings, connectionWindow: 1 << 20)
        #expect(connection.start() == [
            HTTP2Frame(streamID: 0, .settings([HTTP2Setting(.enablePush, 0), HTTP2Setting(.maxConcurrentStreams, 100)], ack: false)),
            HTTP2Frame(streamID: 0, .windowUpdate(increment: UInt32((1 << 20) - 65_535))),
        ])
        #expect(connection.connectionReceiveWindow.size == 1 << 20)
    }

    @Test("the client's first frame must be SETTINGS; it is acknowledged and applied")
    func firstFrameIsSettings() throws {
        var connection = HTTP2ServerConnection()
        _ = connection.start()
        #expect(throws: HTTP2Error(.protocolError, "the client's first frame is PING, not SETTINGS")) {
            try connection.receive(HTTP2Frame(streamID: 0, .ping(1, ack: false)))
        }
        var other = HTTP2ServerConnection()
        let events = try other.receive(HTTP2Frame(streamID: 0, .settings([HTTP2Setting(.maxFrameSize, 32_768)], ack: false)))
        #expect(events == [.send(HTTP2Frame(streamID: 0, .settings([], ack: true))), .peerSettingsChanged])
        #expect(other.peerSettings.maxFrameSize == 32_768 && other.phase == .active)
    }

    @Test("a request opens a stream, half closed when it ends; the response closes it; PING is answered")
    func requestAndResponse() throws {
        var connection = try Self.connection()
        var client = HPACKEncoder()
        let events = try connection.receive(Self.headers(1, Self.request(encoder: &client)))
        #expect(events == [.headers(streamID: 1, fields([":method": "GET", ":scheme": "http", ":path": "/", ":authority": "localhost"]), endStream: true)])
        #expect(connection.state(of: 1) == .halfClosedRemote && connection.activeStreams == 1)
        let head = try connection.sendHeaders(fields([":status": "200"]), on: 1, endStream: false)
        #expect(head == [HTTP2Frame(streamID: 1, .headers(block: hex("88"), endStream: false, endHeaders: true))])
        let body = connection.sendData(Array("hi".utf8)[...], on: 1, endStream: true)
        #expect(body.sent == 2 && body.frames == [HTTP2Frame(streamID: 1, .data(Array("hi".utf8), endStream: true))])
        #expect(connection.state(of: 1) == nil && connection.activeStreams == 0)
        #expect(try connection.receive(HTTP2Frame(streamID: 0, .ping(7, ack: false))) == [.send(HTTP2Frame(streamID: 0, .ping(7, ack: true)))])
    }

    @Test("Upgrade: h2c opens stream 1 half closed: the response goes there, the client's next stream is 3 and stream 1 takes no DATA")
    func upgradedStream() throws {
        var connection = HTTP2ServerConnection()
        connection.openUpgradedStream()
        _ = connection.start()
        #expect(connection.state(of: 1) == .halfClosedRemote && connection.lastPeerStreamID == 1)
        _ = try connection.receive(HTTP2Frame(streamID: 0, .settings([], ack: false)))
        let data = try connection.receive(HTTP2Frame(streamID: 1, .data([1], endStream: false)))
        #expect(Self.reset(in: data) == .streamClosed)
        connection.openUpgradedStream()
        #expect(connection.state(of: 1) == nil, "a second call opens nothing")
        var client = HPACKEncoder()
        #expect(throws: HTTP2Error.self) { try connection.receive(Self.headers(1, Self.request(encoder: &client))) }
    }

    @Test("§6.10: a field block's CONTINUATIONs come together; anything between them is a PROTOCOL_ERROR; a huge block is refused")
    func continuationSequencing() throws {
        var connection = try Self.connection()
        var client = HPACKEncoder()
        let block = Self.request(encoder: &client)
        #expect(try connection.receive(Self.headers(1, Array(block[..<3]), endHeaders: false)).isEmpty)
        #expect(try connection.receive(HTTP2Frame(streamID: 1, .continuation(block: Array(block[3..<5]), endHeaders: false))).isEmpty)
        let events = try connection.receive(HTTP2Frame(streamID: 1, .continuation(block: Array(block[5...]), endHeaders: true)))
        #expect(events.count == 1)
        for interloper in [HTTP2Frame(streamID: 0, .ping(1, ack: false)), HTTP2Frame(streamID: 5, .continuation(block: [], endHeaders: true)),
                           HTTP2Frame(streamID: 3, .unknown(HTTP2FrameType(rawValue: 0xEE), flags: [], length: 0))] {
            var again = try Self.connection()
            var encoder = HPACKEncoder()
            _ = try again.receive(Self.headers(3, Array(Self.request(encoder: &encoder).prefix(2)), endHeaders: false))
            #expect(throws: HTTP2Error.self) { try again.receive(interloper) }
        }
        var orphan = try Self.connection()
        #expect(throws: HTTP2Error(.protocolError, "a CONTINUATION frame on stream 1 with no field block before it")) {
            try orphan.receive(HTTP2Frame(streamID: 1, .continuation(block: [], endHeaders: true)))
        }
        var flood = try Self.connection()
        flood.maximumFieldBlockSize = 100
        _ = try flood.receive(Self.headers(1, [UInt8](repeating: 0x82, count: 60), endHeaders: false))
        #expect(throws: HTTP2Error.self) { try flood.receive(HTTP2Frame(streamID: 1, .continuation(block: [UInt8](repeating: 0x82, count: 60), endHeaders: false))) }
    }

    @Test("§5.1.1: even, reused and decreasing stream identifiers are connection errors; frames on idle streams too")
    func streamIdentifiers() throws {
        var client = HPACKEncoder()
        var even = try Self.connection()
        #expect(throws: HTTP2Error(.protocolError, "a HEADERS frame on stream 2, which a client cannot open")) {
            try even.receive(Self.headers(2, Self.request(encoder: &client)))
        }
        var decreasing = try Self.connection()
        client = HPACKEncoder()
        _ = try decreasing.receive(Self.headers(5, Self.request(encoder: &client)))
        #expect(throws: HTTP2Error(.protocolError, "a HEADERS frame opens stream 3 after stream 5")) {
            try decreasing.receive(Self.headers(3, Self.request(encoder: &client)))
        }
        var idle = try Self.connection()
        #expect(throws: HTTP2Error(.protocolError, "a DATA frame on stream 1, which is idle")) {
            try idle.receive(HTTP2Frame(streamID: 1, .data([1], endStream: false)))
        }
        #expect(throws: HTTP2Error(.protocolError, "a RST_STREAM frame on stream 3, which is idle")) {
            try idle.receive(HTTP2Frame(streamID: 3, .rstStream(.cancel)))
        }
        #expect(throws: HTTP2Error(.protocolError, "a WINDOW_UPDATE frame on stream 3, which is idle")) {
            try idle.receive(HTTP2Frame(streamID: 3, .windowUpdate(increment: 1)))
        }
        // PRIORITY may name an idle stream.
        #expect(try idle.receive(HTTP2Frame(streamID: 9, .priority(HTTP2Priority()))).isEmpty)
    }

    @Test("closed streams are remembered up to 1,024: the first closed are forgotten (PROTOCOL_ERROR), the latest still STREAM_CLOSED")
    func closedStreamMemory() throws {
        var connection = try Self.connection()
        var client = HPACKEncoder()
        let last: UInt32 = 2 * 1_100 - 1
        for stream in stride(from: UInt32(1), through: last, by: 2) {
            _ = try connection.receive(Self.headers(stream, Self.request(encoder: &client)))
            _ = try connection.sendHeaders(fields([":status": "200"]), on: stream, endStream: true)
        }
        #expect(connection.activeStreams == 0)
        #expect(throws: HTTP2Error(.protocolError, "a HEADERS frame opens stream 1 after stream \(last)")) {
            try connection.receive(Self.headers(1, Self.request(encoder: &client)))
        }
        #expect(throws: HTTP2Error(.streamClosed, "a HEADERS frame on stream \(last), which is closed")) {
            try connection.receive(Self.headers(last, Self.request(encoder: &client)))
        }
    }

    @Test("closed streams: DATA or HEADERS after END_STREAM is STREAM_CLOSED; RST_STREAM and WINDOW_UPDATE on one are ignored")
    func closedStreams() throws {
        var connection = try Self.connection()
        var client = HPACKEncoder()
        _ = try connection.receive(Self.headers(1, Self.request(encoder: &client)))
        let data = try connection.receive(HTTP2Frame(streamID: 1, .data([1, 2], endStream: false)))
        #expect(Self.reset(in: data) == .streamClosed)
        // The bytes are given back to the connection's window.
        #expect(data.contains(.send(HTTP2Frame(streamID: 0, .windowUpdate(increment: 2)))))
        #expect(connection.state(of: 1) == nil)
        #expect(try connection.receive(HTTP2Frame(streamID: 1, .rstStream(.cancel))).isEmpty)
        #expect(try connection.receive(HTTP2Frame(streamID: 1, .windowUpdate(increment: 5))).isEmpty)
        #expect(throws: HTTP2Error(.streamClosed, "a HEADERS frame on stream 1, which is closed")) {
            try connection.receive(Self.headers(1, Self.request(encoder: &client)))
        }
    }

    @Test("the peer's RST_STREAM closes a stream; trailers end one; a second HEADERS without END_STREAM is refused")
    func resetsAndTrailers() throws {
        var connection = try Self.connection()
        var client = HPACKEncoder()
        _ = try connection.receive(Self.headers(1, Self.request(encoder: &client), endStream: false))
        #expect(try connection.receive(HTTP2Frame(streamID: 1, .rstStream(.cancel))) == [.streamReset(streamID: 1, .cancel)])
        #expect(connection.activeStreams == 0)
        _ = try connection.receive(Self.headers(3, Self.request(encoder: &client), endStream: false))
        #expect(try connection.receive(HTTP2Frame(streamID: 3, .data([9], endStream: false))) == [.data(streamID: 3, [9], endStream: false)])
        var trailers: [UInt8] = []
        client.encode(fields(["grpc-status": "0"]), into: &trailers)
        #expect(try connection.receive(Self.headers(3, trailers)) == [.headers(streamID: 3, fields(["grpc-status": "0"]), endStream: true)])
        #expect(connection.state(of: 3) == .halfClosedRemote)
        _ = try connection.receive(Self.headers(5, Self.request(encoder: &client), endStream: false))
        var more: [UInt8] = []
        client.encode(fields(["x-more": "1"]), into: &more)
        let events = try connection.receive(Self.headers(5, more, endStream: false))
        #expect(Self.reset(in: events) == .protocolError)
        // The refused block was decoded all the same: the client's next block, which refers to it, reads.
        var next: [UInt8] = []
        client.encode(fields(["x-more": "1"]), into: &next)
        #expect(next == [0xBE])
        _ = try connection.receive(Self.headers(7, Self.request(encoder: &client), endStream: false))
        #expect(try connection.receive(Self.headers(7, next)) == [.headers(streamID: 7, fields(["x-more": "1"]), endStream: true)])
    }

    @Test("§5.1.2: a stream past SETTINGS_MAX_CONCURRENT_STREAMS is refused with REFUSED_STREAM; its block still decoded")
    func concurrentStreamLimit() throws {
        var settings = HTTP2Settings()
        settings.maxConcurrentStreams = 2
        var connection = try Self.connection(settings)
        var client = HPACKEncoder()
        _ = try connection.receive(Self.headers(1, Self.request("/a", encoder: &client)))
        _ = try connection.receive(Self.headers(3, Self.request("/b", encoder: &client)))
        let refused = try connection.receive(Self.headers(5, Self.request("/c", encoder: &client)))
        #expect(Self.reset(in: refused) == .refusedStream)
        #expect(connection.activeStreams == 2)
        _ = try connection.sendHeaders(fields([":status": "204"]), on: 1, endStream: true)
        let accepted = try connection.receive(Self.headers(7, Self.request("/c", encoder: &client)))
        #expect(accepted == [.headers(streamID: 7, fields([":method": "GET", ":scheme": "http", ":path": "/c", ":authority": "localhost"]), endStream: true)])
    }

    @Test("§6.9: receive windows: DATA past the stream's window is a stream FLOW_CONTROL_ERROR, past the connection's a connection one; release grants more")
    func receiveWindows() throws {
        var settings = HTTP2Settings()
        settings.initialWindowSize = 10
        var connection = try Self.connection(settings)
        var client = HPACKEncoder()
        _ = try connection.receive(Self.headers(1, Self.request(encoder: &client), endStream: false))
        #expect(try connection.receive(HTTP2Frame(streamID: 1, .data([UInt8](repeating: 1, count: 6), endStream: false, padding: 3))).count == 1)
        let over = try connection.receive(HTTP2Frame(streamID: 1, .data([1, 2], endStream: false)))
        #expect(Self.reset(in: over) == .flowControlError)
        _ = try connection.receive(Self.headers(3, Self.request(encoder: &client), endStream: false))
        _ = try connection.receive(HTTP2Frame(streamID: 3, .data([UInt8](repeating: 1, count: 10), endStream: false)))
        // Stream 3's window is all consumed: given back; the connection's is far from half consumed: not yet.
        #expect(connection.release(10, on: 3) == [HTTP2Frame(streamID: 3, .windowUpdate(increment: 10))])
        // The connection's window: 65,535 less the 10 (padding included) of stream 1 and stream 3's 10;
        // stream 1's refused 2 were given back at once.
        #expect(connection.connectionReceiveWindow.size == 65_535 - 20)
        var small = try Self.connection()
        client = HPACKEncoder()
        _ = try small.receive(Self.headers(1, Self.request(encoder: &client), endStream: false))
        for _ in 0..<3 { _ = try small.receive(HTTP2Frame(streamID: 1, .data([UInt8](repeating: 0, count: 16_384), endStream: false))) }
        #expect(throws: HTTP2Error.self) { try small.receive(HTTP2Frame(streamID: 1, .data([UInt8](repeating: 0, count: 16_384), endStream: false))) }
    }

    @Test("§6.9: WINDOW_UPDATEs are batched: a 10 MB upload in 16 KiB DATA frames gets one per half window, and the client never runs dry")
    func batchedWindowUpdates() throws {
        var settings = HTTP2Settings()
        settings.initialWindowSize = 1 << 20
        var connection = HTTP2ServerConnection(settings: settings, connectionWindow: 1 << 24)
        _ = connection.start()
        _ = try connection.receive(HTTP2Frame(streamID: 0, .settings([], ack: false)))
        _ = try connection.receive(HTTP2Frame(streamID: 0, .settings([], ack: true)))
        var client = HPACKEncoder()
        _ = try connection.receive(Self.headers(1, Self.request(encoder: &client), endStream: false))
        var updates: [HTTP2Frame] = []
        let frame = [UInt8](repeating: 0x61, count: 16_384)
        for _ in 0..<(10_000_000 / frame.count) {
            // Throws (FLOW_CONTROL_ERROR) if a window ran out before the batch was given back.
            _ = try connection.receive(HTTP2Frame(streamID: 1, .data(frame, endStream: false)))
            updates += connection.release(frame.count, on: 1)
        }
        // 610 DATA frames: 1,220 WINDOW_UPDATEs when each was given back; now one per 512 KiB on the
        // stream (19) and one per 8 MiB on the connection (1).
        #expect(updates.filter { $0.streamID == 1 }.count == 19)
        #expect(updates.filter { $0.streamID == 0 }.count == 1)
        #expect(updates.allSatisfy { if case .windowUpdate(let increment) = $0.payload { increment >= 512 * 1024 } else { false } })
    }

    @Test("RFC 7540 §3.2.1: HTTP2-Settings of an upgrade: base64url decoded and checked as SETTINGS, in force on stream 1")
    func upgradeSettings() throws {
        #expect(try HTTP2Setting.parameters(upgradeField: "AAMAAABkAAQAAAAF") == [HTTP2Setting(.maxConcurrentStreams, 100), HTTP2Setting(.initialWindowSize, 5)])
        #expect(try HTTP2Setting.parameters(upgradeField: "AAQAAAAC==") == [HTTP2Setting(.initialWindowSize, 2)])
        #expect(try HTTP2Setting.parameters(upgradeField: "") == [])
        #expect(throws: HTTP2Error(.flowControlError, "SETTINGS_INITIAL_WINDOW_SIZE is 4294967294, past 2^31-1")) {
            try HTTP2Setting.parameters(upgradeField: "AAT____-AAIAAAAA")
        }
        #expect(throws: HTTP2Error(.frameSizeError, "a SETTINGS frame of 3 bytes, not a multiple of 6")) { try HTTP2Setting.parameters(upgradeField: "AAQA") }
        #expect(throws: HTTP2Error(.protocolError, #"HTTP2-Settings "AA*Q" is not base64url"#)) { try HTTP2Setting.parameters(upgradeField: "AA*Q") }
        var connection = HTTP2ServerConnection()
        _ = connection.start()
        connection.openUpgradedStream(peerSettings: [HTTP2Setting(.initialWindowSize, 5), HTTP2Setting(.maxFrameSize, 20_000)])
        #expect(connection.sendableBytes(on: 1) == 5)
        #expect(connection.peerSettings.maxFrameSize == 20_000)
    }

    @Test("§6.9: send windows: DATA waits for WINDOW_UPDATE, splits at the peer's frame size; SETTINGS_INITIAL_WINDOW_SIZE moves open streams' windows")
    func sendWindows() throws {
        var connection = try Self.connection(peer: [HTTP2Setting(.initialWindowSize, 5)])
        var client = HPACKEncoder()
        _ = try connection.receive(Self.headers(1, Self.request(encoder: &client)))
        _ = try connection.sendHeaders(fields([":status": "200"]), on: 1, endStream: false)
        let body = [UInt8](repeating: 7, count: 20)
        let first = connection.sendData(body[...], on: 1, endStream: true)
        #expect(first.sent == 5 && first.frames == [HTTP2Frame(streamID: 1, .data([7, 7, 7, 7, 7], endStream: false))])
        #expect(connection.sendableBytes(on: 1) == 0)
        #expect(connection.sendData(body[5...], on: 1, endStream: true).sent == 0)
        #expect(try connection.receive(HTTP2Frame(streamID: 1, .windowUpdate(increment: 3))) == [.windowOpened(streamID: 1)])
        #expect(connection.sendableBytes(on: 1) == 3)
        // A larger initial size adds its difference to the open stream's window (§6.9.2): 0 + 3 + (20 - 5).
        let events = try connection.receive(HTTP2Frame(streamID: 0, .settings([HTTP2Setting(.initialWindowSize, 20)], ack: false)))
        #expect(events.contains(.windowOpened(streamID: 1)))
        #expect(connection.sendableBytes(on: 1) == 18)
        // A smaller one can take it below zero.
        _ = try connection.receive(HTTP2Frame(streamID: 0, .settings([HTTP2Setting(.initialWindowSize, 0)], ack: false)))
        #expect(connection.sendableBytes(on: 1) == 0)
        _ = try connection.receive(HTTP2Frame(streamID: 0, .settings([HTTP2Setting(.initialWindowSize, 65_535), HTTP2Setting(.maxFrameSize, 16_384)], ack: false)))
        let rest = connection.sendData(body[5...], on: 1, endStream: true)
        #expect(rest.sent == 15 && rest.frames.last == HTTP2Frame(streamID: 1, .data([UInt8](repeating: 7, count: 15), endStream: true)))
        #expect(connection.state(of: 1) == nil)

        var large = try Self.connection(peer: [HTTP2Setting(.maxFrameSize, 16_384)])
        client = HPACKEncoder()
        _ = try large.receive(Self.headers(1, Self.request(encoder: &client)))
        _ = try large.receive(HTTP2Frame(streamID: 0, .windowUpdate(increment: 100_000)))
        _ = try large.receive(HTTP2Frame(streamID: 1, .windowUpdate(increment: 100_000)))
        let split = large.sendData([UInt8](repeating: 1, count: 40_000)[...], on: 1, endStream: true)
        #expect(split.frames.map(\.flowControlledLength) == [16_384, 16_384, 7_232])
    }

    @Test("§6.9.1: windows past 2^31-1 are FLOW_CONTROL_ERRORs: the connection's ends it, a stream's resets it, a SETTINGS change ends it")
    func windowOverflow() throws {
        var connection = try Self.connection()
        var client = HPACKEncoder()
        _ = try connection.receive(Self.headers(1, Self.request(encoder: &client)))
        let stream = try connection.receive(HTTP2Frame(streamID: 1, .windowUpdate(increment: 0x7FFF_FFFF)))
        #expect(Self.reset(in: stream) == .flowControlError)
        #expect(throws: HTTP2Error(.flowControlError, "a WINDOW_UPDATE takes the connection's window past 2^31-1")) {
            try connection.receive(HTTP2Frame(streamID: 0, .windowUpdate(increment: 0x7FFF_FFFF)))
        }
        var settings = try Self.connection()
        client = HPACKEncoder()
        _ = try settings.receive(Self.headers(1, Self.request(encoder: &client)))
        _ = try settings.receive(HTTP2Frame(streamID: 1, .windowUpdate(increment: 0x7FFF_0000)))
        #expect(throws: HTTP2Error(.flowControlError, "SETTINGS_INITIAL_WINDOW_SIZE takes stream 1's window past 2^31-1")) {
            try settings.receive(HTTP2Frame(streamID: 0, .settings([HTTP2Setting(.initialWindowSize, 0x10_0000)], ack: false)))
        }
    }

    @Test("errors are answered: a stream error with RST_STREAM, a connection error with GOAWAY naming the last stream and the culprit")
    func failures() throws {
        var connection = try Self.connection()
        var client = HPACKEncoder()
        _ = try connection.receive(Self.headers(3, Self.request(encoder: &client), endStream: false))
        #expect(connection.fail(HTTP2Error(.frameSizeError, stream: 3, "a PRIORITY frame of 4 bytes, not 5")) == HTTP2Frame(streamID: 3, .rstStream(.frameSizeError)))
        #expect(connection.activeStreams == 0)
        let goAway = connection.fail(HTTP2Error(.compressionError, "HPACK: index 70 is past the tables' 61 entries"))
        #expect(goAway == HTTP2Frame(streamID: 0, .goAway(lastStreamID: 3, code: .compressionError, debugData: Array("HPACK: index 70 is past the tables' 61 entries".utf8))))
        #expect(connection.phase == .closed)
        // A bad HPACK block is a connection error; a self-dependent HEADERS a stream error, after its block is decoded.
        var hpack = try Self.connection()
        #expect(throws: HTTP2Error(.compressionError, "HPACK: an indexed field with index 0")) { try hpack.receive(Self.headers(1, [0x80])) }
        var selfDependent = try Self.connection()
        client = HPACKEncoder()
        let events = try selfDependent.receive(Self.headers(1, Self.request(encoder: &client), priority: HTTP2Priority(dependency: 1)))
        #expect(Self.reset(in: events) == .protocolError)
    }

    @Test("GOAWAY from the peer: later streams are refused; our SETTINGS' new table size takes effect once acknowledged")
    func goAwayAndAcknowledgement() throws {
        var connection = try Self.connection()
        var client = HPACKEncoder()
        _ = try connection.receive(Self.headers(1, Self.request(encoder: &client)))
        #expect(try connection.receive(HTTP2Frame(streamID: 0, .goAway(lastStreamID: 0, code: .noError, debugData: []))) == [.goAway(lastStreamID: 0, .noError, debugData: [])])
        let later = try connection.receive(Self.headers(3, Self.request(encoder: &client)))
        #expect(Self.reset(in: later) == .refusedStream)

        var settings = HTTP2Settings()
        settings.headerTableSize = 0
        var shrinking = HTTP2ServerConnection(settings: settings)
        _ = shrinking.start()
        _ = try shrinking.receive(HTTP2Frame(streamID: 0, .settings([], ack: false)))
        var encoder = HPACKEncoder()
        _ = try shrinking.receive(Self.headers(1, Self.request(encoder: &encoder)))
        _ = try shrinking.receive(HTTP2Frame(streamID: 0, .settings([], ack: true)))
        // Acknowledged: a block that does not first shrink the table is a COMPRESSION_ERROR.
        #expect(throws: HTTP2Error(.compressionError, "HPACK: the block does not start with the size update to at most 0 that the lowered limit requires")) {
            try shrinking.receive(Self.headers(3, Self.request(encoder: &encoder)))
        }
    }
}
