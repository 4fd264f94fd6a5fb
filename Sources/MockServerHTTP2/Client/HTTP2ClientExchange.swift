/// One request on a connection of its own, as an HTTP/2 client sends it (RFC 9113), for a proxy
/// whose upstream speaks HTTP/2 only: the connection preface and SETTINGS, the request on stream 1
/// (HEADERS, CONTINUATION as needed, the body as DATA within the peer's windows), and the response
/// read back: its head, body and trailers. A value: bytes in, bytes to send and the response out; the
/// caller does the I/O.
///
/// What the peer may do on the way is answered: SETTINGS (acknowledged, its window and frame size
/// applied), PING (acknowledged), WINDOW_UPDATE (more of the body sent), DATA (its window given back
/// at once). A reset of stream 1, a GOAWAY that leaves it out, or a malformed frame is an error.
package struct HTTP2ClientExchange: Sendable {
    /// The answer to the request.
    package struct Response: Sendable, Equatable {
        /// `:status`.
        package var status: Int
        /// The response's fields, `:status` left out.
        package var headers: [HPACKHeader]
        package var body: [UInt8] = []
        /// The fields of a closing HEADERS frame (gRPC's `grpc-status`, say).
        package var trailers: [HPACKHeader] = []

        package init(status: Int, headers: [HPACKHeader], body: [UInt8] = [], trailers: [HPACKHeader] = []) {
            self.status = status
            self.headers = headers
            self.body = body
            self.trailers = trailers
        }
    }

    /// Where the exchange is.
    private enum Phase: Sendable {
        /// The request went; its response's head has not come.
        case awaitingHead
        /// The head came; body and trailers are coming.
        case readingBody(Response)
        /// The stream ended: the response is complete.
        case complete(Response)
    }

    /// How many bytes of the response's body have come so far.
    package var receivedBodyCount: Int {
        switch phase {
        case .awaitingHead: 0
        case .readingBody(let response), .complete(let response): response.body.count
        }
    }

    /// The window this side grants: large, and given back as DATA comes.
    private static let receiveWindow: UInt32 = 1 << 24
    private static let streamID: UInt32 = 1

    private var reader = HTTP2FrameReader(expectingPreface: false, maximumFrameSize: 16_384)
    private var encoder = HPACKEncoder()
    private var decoder = HPACKDecoder()
    private var peer = HTTP2Settings()
    private var phase = Phase.awaitingHead
    private let fields: [HPACKHeader]
    /// The request's body not sent yet.
    private var body: [UInt8]
    private var bodyOffset = 0
    /// What the peer lets this side send: on the connection, and on stream 1.
    private var connectionWindow = 65_535
    private var streamWindow = 65_535
    /// A field block whose CONTINUATION frames are still to come, and whether it ends the stream.
    private var pendingBlock: (block: [UInt8], endStream: Bool)?

    /// An exchange that will send a request of `fields` (pseudo-fields first, names in lower case)
    /// and `body`.
    package init(fields: [HPACKHeader], body: [UInt8]) {
        self.fields = fields
        self.body = body
    }

    /// The response, once the stream has ended.
    package var response: Response? {
        if case .complete(let response) = phase { response } else { nil }
    }

    /// The connection's first bytes: the preface, SETTINGS, a connection window update, and the request.
    package mutating func start() -> [UInt8] {
        var output: [UInt8] = []
        HTTP2FrameWriter.writeClientPreface(into: &output)
        var settings = HTTP2Settings()
        settings.enablePush = false
        settings.initialWindowSize = Self.receiveWindow
        HTTP2FrameWriter.write(HTTP2Frame(streamID: 0, .settings(settings.parametersChangedFromInitialValues, ack: false)), into: &output)
        HTTP2FrameWriter.write(HTTP2Frame(streamID: 0, .windowUpdate(increment: Self.receiveWindow - 65_535)), into: &output)
        var block: [UInt8] = []
        encoder.encode(fields, into: &block)
        HTTP2FrameWriter.writeFieldBlock(block, streamID: Self.streamID, endStream: body.isEmpty, maximumFrameSize: Int(peer.maxFrameSize), into: &output)
        sendBody(into: &output)
        return output
    }

    /// Reads `bytes` from the peer and returns what to send back (acknowledgements, window updates,
    /// more of the body); ``response`` is set once the stream ends.
    ///
    /// - Throws: ``HTTP2Error`` naming the culprit: a malformed frame or field block, a reset of the
    ///   request's stream, a GOAWAY that leaves it unprocessed, a response with no valid `:status`.
    package mutating func receive(_ bytes: [UInt8]) throws(HTTP2Error) -> [UInt8] {
        reader.append(bytes)
        var output: [UInt8] = []
        while response == nil, let frame = try reader.nextFrame() {
            try handle(frame, output: &output)
        }
        return output
    }

    private mutating func handle(_ frame: HTTP2Frame, output: inout [UInt8]) throws(HTTP2Error) {
        if pendingBlock != nil, frame.type != .continuation || frame.streamID != Self.streamID {
            throw HTTP2Error(.protocolError, "a \(frame.type) frame came where stream 1's CONTINUATION was due")
        }
        switch frame.payload {
        case let .settings(parameters, ack):
            guard !ack else { return }
            let before = Int(peer.initialWindowSize)
            peer.apply(parameters)
            streamWindow += Int(peer.initialWindowSize) - before
            encoder.setPeerTableSizeLimit(Int(peer.headerTableSize))
            HTTP2FrameWriter.write(HTTP2Frame(streamID: 0, .settings([], ack: true)), into: &output)
            sendBody(into: &output)
        case let .ping(data, ack):
            if !ack { HTTP2FrameWriter.write(HTTP2Frame(streamID: 0, .ping(data, ack: true)), into: &output) }
        case let .windowUpdate(increment):
            if frame.streamID == 0 { connectionWindow += Int(increment) } else if frame.streamID == Self.streamID { streamWindow += Int(increment) }
            sendBody(into: &output)
        case let .goAway(lastStreamID, code, debugData):
            if lastStreamID < Self.streamID {
                throw HTTP2Error(code, "the upstream sent GOAWAY \(code) before answering: \(String(decoding: debugData, as: UTF8.self))")
            }
        case let .rstStream(code) where frame.streamID == Self.streamID:
            throw HTTP2Error(code, stream: Self.streamID, "the upstream reset the request's stream with \(code)")
        case let .headers(block, endStream, endHeaders, _, _) where frame.streamID == Self.streamID:
            if endHeaders { try fieldBlock(block, endStream: endStream) } else { pendingBlock = (block, endStream) }
        case let .continuation(block, endHeaders):
            guard var pending = pendingBlock else { throw HTTP2Error(.protocolError, "a CONTINUATION frame without a HEADERS frame before it") }
            pending.block += block
            pendingBlock = endHeaders ? nil : pending
            if endHeaders { try fieldBlock(pending.block, endStream: pending.endStream) }
        case let .data(bytes, endStream, _) where frame.streamID == Self.streamID:
            guard case .readingBody(var response) = phase else {
                throw HTTP2Error(.protocolError, stream: Self.streamID, "DATA came before the response's HEADERS")
            }
            // The phase lets go of the body before it grows, so that it grows in place rather than
            // being copied whole at every frame.
            phase = .awaitingHead
            response.body += bytes
            phase = endStream ? .complete(response) : .readingBody(response)
            let length = UInt32(frame.flowControlledLength)
            if length > 0, !endStream {
                HTTP2FrameWriter.write(HTTP2Frame(streamID: 0, .windowUpdate(increment: length)), into: &output)
                HTTP2FrameWriter.write(HTTP2Frame(streamID: Self.streamID, .windowUpdate(increment: length)), into: &output)
            }
        default:
            // Frames of other streams, PRIORITY and unknown types concern nothing this side sent.
            break
        }
    }

    /// A whole field block on stream 1: the response's head (an informational 1xx is skipped), or its trailers.
    private mutating func fieldBlock(_ block: [UInt8], endStream: Bool) throws(HTTP2Error) {
        let decoded: [HPACKHeader]
        do {
            decoded = try decoder.decode(block)
        } catch {
            throw HTTP2Error(.compressionError, "the upstream's field block cannot be decoded: \(error)")
        }
        switch phase {
        case .awaitingHead:
            let status = decoded.first { $0.name == Array(":status".utf8) }.flatMap { Int(String(decoding: $0.value, as: UTF8.self)) }
            guard let status, (100...999).contains(status) else {
                throw HTTP2Error(.protocolError, stream: Self.streamID, "the upstream's response has no valid :status")
            }
            if status < 200 && !endStream { return }
            let response = Response(status: status, headers: decoded.filter { $0.name.first != UInt8(ascii: ":") })
            phase = endStream ? .complete(response) : .readingBody(response)
        case .readingBody(var response):
            guard endStream else { throw HTTP2Error(.protocolError, stream: Self.streamID, "trailers that do not end the stream") }
            response.trailers = decoded
            phase = .complete(response)
        case .complete:
            break
        }
    }

    /// Sends as much of the body as both windows and the frame size allow, ending the stream with its last byte.
    private mutating func sendBody(into output: inout [UInt8]) {
        while bodyOffset < body.count {
            let count = min(body.count - bodyOffset, connectionWindow, streamWindow, Int(peer.maxFrameSize))
            guard count > 0 else { return }
            let end = bodyOffset + count
            HTTP2FrameWriter.write(HTTP2Frame(streamID: Self.streamID, .data(Array(body[bodyOffset..<end]), endStream: end == body.count)), into: &output)
            bodyOffset = end
            connectionWindow -= count
            streamWindow -= count
        }
        if bodyOffset == body.count { body = []; bodyOffset = 0 }
    }
}
