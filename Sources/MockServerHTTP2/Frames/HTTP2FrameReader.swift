/// Reads frames from a connection's bytes, however they were split (RFC 9113 §4): bytes go in as they
/// arrive, whole frames come out, checked as §4.2 and §6 ask. A frame longer than the
/// SETTINGS_MAX_FRAME_SIZE this side advertised is a FRAME_SIZE_ERROR before any of its payload is
/// buffered. A stream error leaves the reader after its frame, ready for the next; after a connection
/// error the connection is over.
package struct HTTP2FrameReader: Sendable {
    /// The client connection preface (§3.4) a server reads before the first frame.
    package static let clientPreface: [UInt8] = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    /// Where the reader is in the connection.
    package enum State: Equatable, Sendable {
        /// A server's reader before the whole client preface: `matched` bytes of it have come.
        case awaitingPreface(matched: Int)
        case readingFrames
    }

    package private(set) var state: State
    /// The largest payload a frame may carry: this side's SETTINGS_MAX_FRAME_SIZE.
    package var maximumFrameSize: Int
    /// Bytes received and not yet read, from `start`.
    private var buffer: [UInt8] = []
    private var start = 0

    /// A reader for a server (`expectingPreface`: the client preface comes first) or for a client.
    package init(expectingPreface: Bool, maximumFrameSize: Int = 16_384) {
        state = expectingPreface ? .awaitingPreface(matched: 0) : .readingFrames
        self.maximumFrameSize = maximumFrameSize
    }

    /// The number of bytes received and not yet read.
    package var buffered: Int { buffer.count - start }

    /// Adds received bytes.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Adds received bytes.
    package mutating func append(_ bytes: [UInt8]) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// The next whole frame, or nil until more bytes come.
    package mutating func nextFrame() throws(HTTP2Error) -> HTTP2Frame? {
        if case let .awaitingPreface(matched) = state {
            let preface = Self.clientPreface
            let count = min(preface.count - matched, buffered)
            for offset in 0..<count where buffer[start + offset] != preface[matched + offset] {
                throw HTTP2Error(.protocolError, "the connection does not start with the HTTP/2 client preface")
            }
            start += count
            guard matched + count == preface.count else {
                state = .awaitingPreface(matched: matched + count)
                return nil
            }
            state = .readingFrames
        }
        guard buffered >= HTTP2FrameHeader.size else {
            if start == buffer.count, start > 0 {
                // Everything read: the buffer goes, so that an idle connection holds none (the next
                // read makes one of its size).
                buffer = []
                start = 0
            }
            return nil
        }
        var result: Result<HTTP2Frame?, HTTP2Error> = .success(nil)
        buffer.withUnsafeBytes { all in
            let available = UnsafeRawBufferPointer(rebasing: all[start...])
            let header = HTTP2FrameHeader(available)
            guard header.length <= maximumFrameSize else {
                result = .failure(HTTP2Error(.frameSizeError, "a \(header.type) frame of \(header.length) bytes, past the maximum frame size \(maximumFrameSize)"))
                return
            }
            guard available.count >= HTTP2FrameHeader.size + header.length else { return }
            let payload = UnsafeRawBufferPointer(rebasing: available[HTTP2FrameHeader.size..<(HTTP2FrameHeader.size + header.length)])
            start += HTTP2FrameHeader.size + header.length
            result = Result { () throws(HTTP2Error) in try Self.parse(header, payload) }
        }
        return try result.get()
    }

    /// Drops read bytes once they are most of the buffer, so that a long connection's buffer stays
    /// the size of what is pending.
    private mutating func compact() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 4096, start > buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
    }

    /// A frame from its header and payload, checked as §6 asks for its type.
    package static func parse(_ header: HTTP2FrameHeader, _ payload: UnsafeRawBufferPointer) throws(HTTP2Error) -> HTTP2Frame {
        let stream = header.streamID, flags = header.flags, type = header.type
        func requireStream() throws(HTTP2Error) {
            guard stream != 0 else { throw HTTP2Error(.protocolError, "a \(type) frame on stream 0") }
        }
        func requireConnection() throws(HTTP2Error) {
            guard stream == 0 else { throw HTTP2Error(.protocolError, "a \(type) frame on stream \(stream), not 0") }
        }
        func requireLength(_ length: Int, _ scope: HTTP2Error.Scope = .connection) throws(HTTP2Error) {
            guard payload.count == length else {
                var error = HTTP2Error(.frameSizeError, "a \(type) frame of \(payload.count) bytes, not \(length)")
                error.scope = scope
                throw error
            }
        }
        switch type {
        case .data:
            try requireStream()
            let (body, padding) = try unpadded(payload, header)
            return HTTP2Frame(streamID: stream, .data(Array(body), endStream: flags.contains(.endStream), padding: padding))
        case .headers:
            try requireStream()
            var (block, padding) = try unpadded(payload, header)
            var priority: HTTP2Priority?
            if flags.contains(.priority) {
                guard block.count >= 5 else { throw HTTP2Error(.frameSizeError, "a HEADERS frame too short for its priority fields") }
                // A HEADERS frame depending on its own stream is a stream error the connection
                // answers once it has decoded the field block, which keeps HPACK in step (§4.3).
                priority = HTTP2Priority(block, at: 0)
                block = UnsafeRawBufferPointer(rebasing: block[5...])
            }
            return HTTP2Frame(streamID: stream, .headers(block: Array(block), endStream: flags.contains(.endStream),
                                                         endHeaders: flags.contains(.endHeaders), priority: priority, padding: padding))
        case .priority:
            try requireStream()
            try requireLength(5, .stream(stream))
            let fields = HTTP2Priority(payload, at: 0)
            guard fields.dependency != stream else { throw HTTP2Error(.protocolError, stream: stream, "stream \(stream) depends on itself") }
            return HTTP2Frame(streamID: stream, .priority(fields))
        case .rstStream:
            try requireStream()
            try requireLength(4)
            return HTTP2Frame(streamID: stream, .rstStream(HTTP2ErrorCode(rawValue: HTTP2Bytes.uint32(payload, at: 0))))
        case .settings:
            try requireConnection()
            if flags.contains(.ack) {
                guard payload.isEmpty else { throw HTTP2Error(.frameSizeError, "a SETTINGS acknowledgement with \(payload.count) bytes of payload") }
                return HTTP2Frame(streamID: 0, .settings([], ack: true))
            }
            guard payload.count % 6 == 0 else { throw HTTP2Error(.frameSizeError, "a SETTINGS frame of \(payload.count) bytes, not a multiple of 6") }
            var settings: [HTTP2Setting] = []
            settings.reserveCapacity(payload.count / 6)
            for offset in stride(from: 0, to: payload.count, by: 6) {
                let setting = HTTP2Setting(HTTP2Setting.Identifier(rawValue: HTTP2Bytes.uint16(payload, at: offset)), HTTP2Bytes.uint32(payload, at: offset + 2))
                try setting.validate()
                settings.append(setting)
            }
            return HTTP2Frame(streamID: 0, .settings(settings, ack: false))
        case .pushPromise:
            // A client cannot push (§8.4), and this side never enables push as a client: refused.
            throw HTTP2Error(.protocolError, "a PUSH_PROMISE frame on stream \(stream), and push is not enabled")
        case .ping:
            try requireConnection()
            try requireLength(8)
            let data = UInt64(HTTP2Bytes.uint32(payload, at: 0)) << 32 | UInt64(HTTP2Bytes.uint32(payload, at: 4))
            return HTTP2Frame(streamID: 0, .ping(data, ack: flags.contains(.ack)))
        case .goAway:
            try requireConnection()
            guard payload.count >= 8 else { throw HTTP2Error(.frameSizeError, "a GOAWAY frame of \(payload.count) bytes, under 8") }
            return HTTP2Frame(streamID: 0, .goAway(lastStreamID: HTTP2Bytes.uint32(payload, at: 0) & 0x7FFF_FFFF,
                                                   code: HTTP2ErrorCode(rawValue: HTTP2Bytes.uint32(payload, at: 4)),
                                                   debugData: Array(payload[8...])))
        case .windowUpdate:
            try requireLength(4)
            let increment = HTTP2Bytes.uint32(payload, at: 0) & 0x7FFF_FFFF
            guard increment != 0 else {
                throw stream == 0 ? HTTP2Error(.protocolError, "a WINDOW_UPDATE of 0 on the connection")
                    : HTTP2Error(.protocolError, stream: stream, "a WINDOW_UPDATE of 0 on stream \(stream)")
            }
            return HTTP2Frame(streamID: stream, .windowUpdate(increment: increment))
        case .continuation:
            try requireStream()
            return HTTP2Frame(streamID: stream, .continuation(block: Array(payload), endHeaders: flags.contains(.endHeaders)))
        default:
            return HTTP2Frame(streamID: stream, .unknown(type, flags: flags, length: payload.count))
        }
    }

    /// A DATA or HEADERS payload without its padding, and the padding's length (nil without PADDED).
    private static func unpadded(_ payload: UnsafeRawBufferPointer, _ header: HTTP2FrameHeader) throws(HTTP2Error) -> (UnsafeRawBufferPointer, Int?) {
        guard header.flags.contains(.padded) else { return (payload, nil) }
        guard let padLength = payload.first else {
            throw HTTP2Error(.frameSizeError, "a padded \(header.type) frame with no pad length")
        }
        guard Int(padLength) < payload.count else {
            throw HTTP2Error(.protocolError, "a \(header.type) frame with \(padLength) bytes of padding in a \(payload.count)-byte payload")
        }
        return (UnsafeRawBufferPointer(rebasing: payload[1..<(payload.count - Int(padLength))]), Int(padLength))
    }
}
