/// A server's HTTP/2 connection as a value (RFC 9113 §5, §6.5, §6.9, §6.10): it takes the frames the
/// reader made and says what they mean and what to send back, and it makes the frames of what the
/// server sends. It does no I/O: the driver that owns the socket feeds it and writes what it returns.
///
/// It holds the streams' states (§5.1) and the concurrent stream limit this side advertised
/// (§5.1.2, answered with REFUSED_STREAM), the flow-control windows of the connection and of each
/// stream in both directions (§6.9, with SETTINGS_INITIAL_WINDOW_SIZE changes and overflow), the
/// CONTINUATION sequence of a field block (§6.10), and the HPACK decoder and encoder, so that every
/// field block is decoded, even one whose stream is refused (§4.3).
///
/// `receive` throws only connection errors; a stream error comes back as RST_STREAM to send and the
/// stream is closed. A reader's error goes through `fail`, which answers it the same way.
package struct HTTP2ServerConnection: Sendable {
    /// Where the connection is.
    package enum Phase: Equatable, Sendable {
        /// The preface was read; the client's SETTINGS frame must come first (§3.4).
        case awaitingSettings
        case active
        /// The peer sent GOAWAY: streams above `lastStreamID` were not processed by it.
        case peerGoingAway(lastStreamID: UInt32)
        /// This side sent GOAWAY after a connection error: nothing more is read.
        case closed
    }

    /// What a received frame means for the server.
    package enum Event: Equatable, Sendable {
        /// A frame to send back (SETTINGS and PING acknowledgements, WINDOW_UPDATE, RST_STREAM).
        case send(HTTP2Frame)
        /// A request's header fields, or its trailers (the second field block of a stream).
        case headers(streamID: UInt32, [HPACKHeader], endStream: Bool)
        case data(streamID: UInt32, [UInt8], endStream: Bool)
        /// The peer reset the stream.
        case streamReset(streamID: UInt32, HTTP2ErrorCode)
        /// This side reset the stream for a stream error (the RST_STREAM is in a `.send` before it).
        case streamFailed(HTTP2Error)
        case goAway(lastStreamID: UInt32, HTTP2ErrorCode, debugData: [UInt8])
        /// A send window grew (stream 0: the connection's): data waiting for it may go.
        case windowOpened(streamID: UInt32)
        /// The peer's settings changed (`peerSettings`): its frame size, table size, windows.
        case peerSettingsChanged
        case pingAcknowledged(UInt64)
    }

    /// One stream's state and windows.
    struct Stream: Sendable {
        var state: HTTP2StreamState
        var sendWindow: HTTP2FlowWindow
        var receiveWindow: HTTP2FlowWindow
        /// Whether its request's field block came (the next one is trailers).
        var headersReceived = false
        /// DATA bytes the server consumed and has not yet given back with a WINDOW_UPDATE.
        var released = 0
    }

    /// A field block being read, until its END_HEADERS.
    struct FieldBlock: Sendable {
        var streamID: UInt32
        var endStream: Bool
        var bytes: [UInt8]
        /// The stream error to answer once the block is decoded, when the stream is refused.
        var refusal: HTTP2Error?
    }

    package private(set) var phase = Phase.awaitingSettings
    /// The settings this side advertised, acknowledged by the peer or not.
    package private(set) var localSettings: HTTP2Settings
    /// The settings in force for what the peer sends: the last ones it acknowledged.
    package private(set) var acknowledgedLocalSettings = HTTP2Settings()
    /// Settings sent and not yet acknowledged, oldest first.
    private var unacknowledgedSettings: [HTTP2Settings] = []
    package private(set) var peerSettings = HTTP2Settings()
    private var streams: [UInt32: Stream] = [:]
    /// Streams closed lately, so that a frame on one is told from one on a stream never opened.
    private var recentlyClosed: Set<UInt32> = []
    /// ``recentlyClosed``'s streams in the order they closed.
    private var closedOrder: [UInt32] = []
    /// The highest stream the peer opened (or tried to).
    package private(set) var lastPeerStreamID: UInt32 = 0
    package private(set) var connectionSendWindow = HTTP2FlowWindow(65_535)
    package private(set) var connectionReceiveWindow = HTTP2FlowWindow(65_535)
    /// The connection receive window this side grants once started.
    private let connectionWindowTarget: Int
    /// DATA bytes the server consumed and has not yet given back on the connection's window.
    private var connectionReleased = 0
    private var fieldBlock: FieldBlock?
    /// The largest field block (HEADERS and its CONTINUATIONs) this side buffers.
    package var maximumFieldBlockSize: Int
    private var decoder: HPACKDecoder
    private var encoder = HPACKEncoder()

    /// A connection that will advertise `settings` and grant the peer a connection window of
    /// `connectionWindow` bytes (RFC default 65,535; more takes a WINDOW_UPDATE at the start).
    package init(settings: HTTP2Settings = HTTP2Settings(), connectionWindow: Int = 65_535) {
        localSettings = settings
        connectionWindowTarget = connectionWindow
        let listLimit = settings.maxHeaderListSize.map(Int.init) ?? 64 * 1024
        maximumFieldBlockSize = 2 * listLimit
        decoder = HPACKDecoder(maximumTableSizeLimit: 4096, maximumHeaderListSize: listLimit)
    }

    /// Gives back the stream table's capacity when no stream is open, so that an idle connection
    /// keeps none. Called once a read, not as each stream closes: a stream that opens and closes in
    /// the same read would otherwise make its table again each time.
    package mutating func releaseIdleCapacity() {
        if streams.isEmpty, streams.capacity > 0 { streams = [:] }
    }

    /// The number of streams open or half closed.
    package var activeStreams: Int { streams.count }

    /// A stream's state, nil when it is idle or closed.
    package func state(of streamID: UInt32) -> HTTP2StreamState? { streams[streamID]?.state }

    /// How many bytes of DATA this side may send on `streamID` now: the smaller of its window and the
    /// connection's (0 when the stream cannot send).
    package func sendableBytes(on streamID: UInt32) -> Int {
        guard let stream = streams[streamID], stream.state.localMaySend else { return 0 }
        return max(0, min(stream.sendWindow.size, connectionSendWindow.size))
    }

    /// Opens stream 1 for the request of an HTTP/1.1 `Upgrade: h2c` (RFC 7540 §3.2): half closed
    /// (remote), as the request was sent whole; the response goes on it. `peerSettings` are the
    /// request's `HTTP2-Settings` (§3.2.1), in force from the start, as if the client had sent them
    /// in a SETTINGS frame the upgrade acknowledged.
    package mutating func openUpgradedStream(peerSettings parameters: [HTTP2Setting] = []) {
        guard lastPeerStreamID == 0 else { return }
        peerSettings.apply(parameters)
        encoder.setPeerTableSizeLimit(Int(peerSettings.headerTableSize))
        lastPeerStreamID = 1
        streams[1] = Stream(state: .halfClosedRemote, sendWindow: HTTP2FlowWindow(Int(peerSettings.initialWindowSize)),
                            receiveWindow: HTTP2FlowWindow(Int(acknowledgedLocalSettings.initialWindowSize)), headersReceived: true)
    }

    /// The server's first frames (§3.4): its SETTINGS, and a WINDOW_UPDATE for a larger connection window.
    package mutating func start() -> [HTTP2Frame] {
        unacknowledgedSettings.append(localSettings)
        var frames = [HTTP2Frame(streamID: 0, .settings(localSettings.parametersChangedFromInitialValues, ack: false))]
        let increment = connectionWindowTarget - connectionReceiveWindow.size
        if increment > 0, connectionReceiveWindow.grow(by: increment) {
            frames.append(HTTP2Frame(streamID: 0, .windowUpdate(increment: UInt32(increment))))
        }
        return frames
    }

    // MARK: Receiving

    /// What a frame from the peer means. Throws a connection error, after which the connection is
    /// over (`fail` makes its GOAWAY).
    package mutating func receive(_ frame: HTTP2Frame) throws(HTTP2Error) -> [Event] {
        let stream = frame.streamID
        if var block = fieldBlock {
            // §6.10: a field block's frames come together.
            guard case let .continuation(fragment, endHeaders) = frame.payload, stream == block.streamID else {
                throw HTTP2Error(.protocolError, "a \(frame.type) frame on stream \(stream) inside stream \(block.streamID)'s field block")
            }
            guard block.bytes.count + fragment.count <= maximumFieldBlockSize else {
                throw HTTP2Error(.enhanceYourCalm, "stream \(stream)'s field block passes \(maximumFieldBlockSize) bytes")
            }
            block.bytes += fragment
            fieldBlock = endHeaders ? nil : block
            return endHeaders ? try finish(block) : []
        }
        switch phase {
        case .closed:
            return []
        case .awaitingSettings:
            guard case .settings(_, ack: false) = frame.payload else {
                throw HTTP2Error(.protocolError, "the client's first frame is \(frame.type), not SETTINGS")
            }
            phase = .active
        case .active, .peerGoingAway:
            break
        }
        switch frame.payload {
        case let .settings(parameters, ack):
            return try receiveSettings(parameters, ack: ack)
        case let .headers(block, endStream, endHeaders, priority, _):
            var pending = FieldBlock(streamID: stream, endStream: endStream, bytes: block, refusal: try admitHeaders(on: stream, endStream: endStream))
            if pending.refusal == nil, priority?.dependency == stream {
                pending.refusal = HTTP2Error(.protocolError, stream: stream, "stream \(stream) depends on itself")
            }
            guard endHeaders else {
                fieldBlock = pending
                return []
            }
            return try finish(pending)
        case .continuation:
            throw HTTP2Error(.protocolError, "a CONTINUATION frame on stream \(stream) with no field block before it")
        case let .data(bytes, endStream, _):
            return try receiveData(bytes, on: stream, flowControlled: frame.flowControlledLength, endStream: endStream)
        case let .rstStream(code):
            try requireNotIdle(stream, frame.type)
            guard streams[stream] != nil else { return [] }
            close(stream)
            return [.streamReset(streamID: stream, code)]
        case .priority:
            return []
        case let .ping(data, ack):
            return ack ? [.pingAcknowledged(data)] : [.send(HTTP2Frame(streamID: 0, .ping(data, ack: true)))]
        case let .goAway(lastStreamID, code, debugData):
            phase = .peerGoingAway(lastStreamID: lastStreamID)
            return [.goAway(lastStreamID: lastStreamID, code, debugData: debugData)]
        case let .windowUpdate(increment):
            return try receiveWindowUpdate(Int(increment), on: stream)
        case .unknown:
            return []
        }
    }

    /// Answers an error of the reader or of `receive`: RST_STREAM for a stream error (the stream
    /// closes), GOAWAY for a connection error (nothing more is read).
    package mutating func fail(_ error: HTTP2Error) -> HTTP2Frame {
        switch error.scope {
        case let .stream(id):
            if streams[id] != nil { close(id) }
            return HTTP2Frame(streamID: id, .rstStream(error.code))
        case .connection:
            phase = .closed
            fieldBlock = nil
            return HTTP2Frame(streamID: 0, .goAway(lastStreamID: lastPeerStreamID, code: error.code, debugData: Array(error.reason.utf8)))
        }
    }

    private mutating func receiveSettings(_ parameters: [HTTP2Setting], ack: Bool) throws(HTTP2Error) -> [Event] {
        if ack {
            guard !unacknowledgedSettings.isEmpty else { return [] }
            let settings = unacknowledgedSettings.removeFirst()
            // Usually the only ones: the array's capacity is not kept for the connection's life.
            if unacknowledgedSettings.isEmpty { unacknowledgedSettings = [] }
            let delta = Int(settings.initialWindowSize) - Int(acknowledgedLocalSettings.initialWindowSize)
            for id in streams.keys {
                // This side's own setting: an overflow here is this side's mistake, so it is capped.
                if !streams[id]!.receiveWindow.grow(by: delta) { _ = streams[id]!.receiveWindow.grow(by: Int(HTTP2Setting.maximumWindowSize) - streams[id]!.receiveWindow.size) }
            }
            decoder.setMaximumTableSizeLimit(Int(settings.headerTableSize))
            acknowledgedLocalSettings = settings
            return []
        }
        let delta = parameters.reduce(Int(peerSettings.initialWindowSize)) { $1.identifier == .initialWindowSize ? Int($1.value) : $0 } - Int(peerSettings.initialWindowSize)
        if delta != 0 {
            for id in streams.keys where !streams[id]!.sendWindow.grow(by: delta) {
                throw HTTP2Error(.flowControlError, "SETTINGS_INITIAL_WINDOW_SIZE takes stream \(id)'s window past 2^31-1")
            }
        }
        peerSettings.apply(parameters)
        encoder.setPeerTableSizeLimit(Int(peerSettings.headerTableSize))
        var events: [Event] = [.send(HTTP2Frame(streamID: 0, .settings([], ack: true))), .peerSettingsChanged]
        if delta > 0 { events += streams.keys.sorted().map { .windowOpened(streamID: $0) } }
        return events
    }

    /// Checks a HEADERS frame's stream and opens it: nil when the block is a request or trailers, the
    /// stream error to answer (once the block is decoded) when the stream is refused.
    private mutating func admitHeaders(on stream: UInt32, endStream: Bool) throws(HTTP2Error) -> HTTP2Error? {
        if let existing = streams[stream] {
            guard existing.state.peerMaySend else {
                return HTTP2Error(.streamClosed, stream: stream, "a HEADERS frame on stream \(stream) after its END_STREAM")
            }
            // Trailers end the stream (§8.1).
            guard endStream else { return HTTP2Error(.protocolError, stream: stream, "a second HEADERS frame on stream \(stream) without END_STREAM") }
            return nil
        }
        guard stream % 2 == 1 else { throw HTTP2Error(.protocolError, "a HEADERS frame on stream \(stream), which a client cannot open") }
        guard stream > lastPeerStreamID else {
            if recentlyClosed.contains(stream) { throw HTTP2Error(.streamClosed, "a HEADERS frame on stream \(stream), which is closed") }
            throw HTTP2Error(.protocolError, "a HEADERS frame opens stream \(stream) after stream \(lastPeerStreamID)")
        }
        lastPeerStreamID = stream
        if case let .peerGoingAway(last) = phase, stream > last {
            return HTTP2Error(.refusedStream, stream: stream, "stream \(stream) opened after the peer's GOAWAY")
        }
        if let limit = localSettings.maxConcurrentStreams, streams.count >= Int(limit) {
            rememberClosed(stream)
            return HTTP2Error(.refusedStream, stream: stream, "stream \(stream) would pass the \(limit) concurrent streams allowed")
        }
        streams[stream] = Stream(state: .open, sendWindow: HTTP2FlowWindow(Int(peerSettings.initialWindowSize)),
                                 receiveWindow: HTTP2FlowWindow(Int(acknowledgedLocalSettings.initialWindowSize)))
        return nil
    }

    /// Decodes a whole field block and says what it is.
    private mutating func finish(_ block: FieldBlock) throws(HTTP2Error) -> [Event] {
        let stream = block.streamID
        let headers: [HPACKHeader]
        do {
            headers = try decoder.decode(block.bytes)
        } catch {
            let failure = error.http2Error(streamID: stream)
            guard case .stream = failure.scope else { throw failure }
            return [.send(fail(failure)), .streamFailed(failure)]
        }
        if let refusal = block.refusal { return [.send(fail(refusal)), .streamFailed(refusal)] }
        guard var state = streams[stream] else { return [] }
        state.headersReceived = true
        streams[stream] = state
        if block.endStream { endRemote(stream) }
        return [.headers(streamID: stream, headers, endStream: block.endStream)]
    }

    private mutating func receiveData(_ bytes: [UInt8], on stream: UInt32, flowControlled length: Int, endStream: Bool) throws(HTTP2Error) -> [Event] {
        guard connectionReceiveWindow.consume(length) else {
            throw HTTP2Error(.flowControlError, "\(length) bytes of DATA on stream \(stream) past the connection's window of \(connectionReceiveWindow.size)")
        }
        try requireNotIdle(stream, .data)
        var refusal: HTTP2Error?
        if let state = streams[stream] {
            if !state.state.peerMaySend {
                refusal = HTTP2Error(.streamClosed, stream: stream, "DATA on stream \(stream) after its END_STREAM")
            } else if !state.headersReceived {
                refusal = HTTP2Error(.protocolError, stream: stream, "DATA on stream \(stream) before its HEADERS")
            } else if !streams[stream]!.receiveWindow.consume(length) {
                refusal = HTTP2Error(.flowControlError, stream: stream, "\(length) bytes of DATA on stream \(stream) past its window of \(state.receiveWindow.size)")
            }
        } else {
            refusal = HTTP2Error(.streamClosed, stream: stream, "DATA on stream \(stream), which is closed")
        }
        if let refusal {
            // The bytes count on the connection's window all the same (§6.9): give them back.
            return [.send(fail(refusal)), .streamFailed(refusal)] + creditConnection(length)
        }
        if endStream { endRemote(stream) }
        return [.data(streamID: stream, bytes, endStream: endStream)]
    }

    private mutating func receiveWindowUpdate(_ increment: Int, on stream: UInt32) throws(HTTP2Error) -> [Event] {
        if stream == 0 {
            guard connectionSendWindow.grow(by: increment) else { throw HTTP2Error(.flowControlError, "a WINDOW_UPDATE takes the connection's window past 2^31-1") }
            return [.windowOpened(streamID: 0)]
        }
        try requireNotIdle(stream, .windowUpdate)
        guard streams[stream] != nil else { return [] }
        guard streams[stream]!.sendWindow.grow(by: increment) else {
            let error = HTTP2Error(.flowControlError, stream: stream, "a WINDOW_UPDATE takes stream \(stream)'s window past 2^31-1")
            return [.send(fail(error)), .streamFailed(error)]
        }
        return [.windowOpened(streamID: stream)]
    }

    /// §5.1: a frame other than HEADERS or PRIORITY on an idle stream is a connection error.
    private func requireNotIdle(_ stream: UInt32, _ type: HTTP2FrameType) throws(HTTP2Error) {
        guard stream <= lastPeerStreamID || streams[stream] != nil else {
            throw HTTP2Error(.protocolError, "a \(type) frame on stream \(stream), which is idle")
        }
    }

    /// Gives bytes back to the peer's connection window.
    private mutating func creditConnection(_ count: Int) -> [Event] {
        guard count > 0, connectionReceiveWindow.grow(by: count) else { return [] }
        return [.send(HTTP2Frame(streamID: 0, .windowUpdate(increment: UInt32(count))))]
    }

    // MARK: Sending

    /// The frames of a response's header fields (or trailers, with `endStream`) on `streamID`: a
    /// HEADERS frame and the CONTINUATIONs the peer's frame size makes it need.
    package mutating func sendHeaders(_ headers: [HPACKHeader], on streamID: UInt32, endStream: Bool) throws(HTTP2Error) -> [HTTP2Frame] {
        guard let stream = streams[streamID], stream.state.localMaySend else {
            throw HTTP2Error(.internalError, stream: streamID, "headers for stream \(streamID), which cannot send")
        }
        var block: [UInt8] = []
        encoder.encode(headers, into: &block)
        if endStream { endLocal(streamID) }
        return HTTP2FrameWriter.fieldBlockFrames(block, streamID: streamID, endStream: endStream, maximumFrameSize: Int(peerSettings.maxFrameSize))
    }

    /// DATA frames for as much of `bytes` as the windows and the peer's frame size allow now, and how
    /// many bytes they carry; END_STREAM goes on the last one only when all of `bytes` went.
    package mutating func sendData(_ bytes: ArraySlice<UInt8>, on streamID: UInt32, endStream: Bool) -> (frames: [HTTP2Frame], sent: Int) {
        let count = min(bytes.count, sendableBytes(on: streamID))
        guard streams[streamID] != nil, count > 0 || (bytes.isEmpty && endStream) else { return ([], 0) }
        _ = connectionSendWindow.consume(count)
        _ = streams[streamID]!.sendWindow.consume(count)
        var frames: [HTTP2Frame] = []
        var offset = bytes.startIndex
        let end = bytes.startIndex + count
        let finishes = endStream && count == bytes.count
        repeat {
            let chunkEnd = min(end, offset + Int(peerSettings.maxFrameSize))
            frames.append(HTTP2Frame(streamID: streamID, .data(Array(bytes[offset..<chunkEnd]), endStream: finishes && chunkEnd == end)))
            offset = chunkEnd
        } while offset < end
        if finishes { endLocal(streamID) }
        return (frames, count)
    }

    /// Writes DATA frames for as much of `bytes` as the windows and the peer's frame size allow now
    /// into `output`, and returns how many bytes they carry; END_STREAM goes on the last one only
    /// when all of `bytes` went. The bytes are copied once, into `output`: no frame value is made.
    package mutating func sendData(_ bytes: ArraySlice<UInt8>, on streamID: UInt32, endStream: Bool, into output: inout [UInt8]) -> Int {
        let count = min(bytes.count, sendableBytes(on: streamID))
        guard streams[streamID] != nil, count > 0 || (bytes.isEmpty && endStream) else { return 0 }
        _ = connectionSendWindow.consume(count)
        _ = streams[streamID]!.sendWindow.consume(count)
        var offset = bytes.startIndex
        let end = bytes.startIndex + count
        let finishes = endStream && count == bytes.count
        let frameSize = Int(peerSettings.maxFrameSize)
        repeat {
            let chunkEnd = min(end, offset + frameSize)
            HTTP2FrameWriter.writeData(bytes[offset..<chunkEnd], streamID: streamID, endStream: finishes && chunkEnd == end, into: &output)
            offset = chunkEnd
        } while offset < end
        if finishes { endLocal(streamID) }
        return count
    }

    /// The WINDOW_UPDATE frames that give back `count` bytes the server has consumed of `streamID`'s
    /// DATA, on the stream (while the peer may still send on it) and on the connection. They are
    /// batched, as nghttp2 and nginx do: a window is given back once half of it is consumed, so that
    /// a large upload costs a WINDOW_UPDATE per half window rather than two per DATA frame. The peer
    /// always has at least half of each window to send in, so it never waits on the batching.
    package mutating func release(_ count: Int, on streamID: UInt32) -> [HTTP2Frame] {
        guard count > 0 else { return [] }
        var frames: [HTTP2Frame] = []
        if streams[streamID]?.state.peerMaySend == true {
            streams[streamID]!.released += count
            let released = streams[streamID]!.released
            if released >= Int(acknowledgedLocalSettings.initialWindowSize) / 2, streams[streamID]!.receiveWindow.grow(by: released) {
                streams[streamID]!.released = 0
                frames.append(HTTP2Frame(streamID: streamID, .windowUpdate(increment: UInt32(released))))
            }
        }
        connectionReleased += count
        if connectionReleased >= connectionWindowTarget / 2, connectionReceiveWindow.grow(by: connectionReleased) {
            frames.append(HTTP2Frame(streamID: 0, .windowUpdate(increment: UInt32(connectionReleased))))
            connectionReleased = 0
        }
        return frames
    }

    // MARK: Stream states

    private mutating func endRemote(_ stream: UInt32) {
        guard let state = streams[stream]?.state else { return }
        if let next = state.afterRemoteEnd { streams[stream]!.state = next } else { close(stream) }
    }

    private mutating func endLocal(_ stream: UInt32) {
        guard let state = streams[stream]?.state else { return }
        if let next = state.afterLocalEnd { streams[stream]!.state = next } else { close(stream) }
    }

    private mutating func close(_ stream: UInt32) {
        streams[stream] = nil
        rememberClosed(stream)
    }

    /// Adds a stream to ``recentlyClosed``, whose memory stays bounded: past 1,024 streams the 512
    /// closed first go (their frames then count as ones on a stream never opened, a PROTOCOL_ERROR
    /// rather than STREAM_CLOSED). The order is kept as it comes, rather than sorting the set every
    /// 512 closes, which was 3% of the server's CPU under h2load.
    private mutating func rememberClosed(_ stream: UInt32) {
        guard recentlyClosed.insert(stream).inserted else { return }
        closedOrder.append(stream)
        if closedOrder.count > 1024 {
            recentlyClosed.subtract(closedOrder[..<512])
            closedOrder.removeFirst(512)
        }
    }
}
