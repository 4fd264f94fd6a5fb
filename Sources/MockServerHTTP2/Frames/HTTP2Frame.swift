/// One HTTP/2 frame (RFC 9113 §4, §6), checked as §6 asks: what the reader returns and the writer takes.
package struct HTTP2Frame: Hashable, Sendable {
    /// Each frame type's contents. A field block is the raw HPACK fragment; `padding` is nil without
    /// the PADDED flag, else the number of padding bytes.
    package enum Payload: Hashable, Sendable {
        case data([UInt8], endStream: Bool, padding: Int? = nil)
        case headers(block: [UInt8], endStream: Bool, endHeaders: Bool, priority: HTTP2Priority? = nil, padding: Int? = nil)
        case priority(HTTP2Priority)
        case rstStream(HTTP2ErrorCode)
        /// SETTINGS: an acknowledgement has no parameters.
        case settings([HTTP2Setting], ack: Bool)
        /// PING's eight bytes of opaque data, as one number.
        case ping(UInt64, ack: Bool)
        case goAway(lastStreamID: UInt32, code: HTTP2ErrorCode, debugData: [UInt8])
        case windowUpdate(increment: UInt32)
        case continuation(block: [UInt8], endHeaders: Bool)
        /// A frame of a type this side does not know, read past and to be ignored (§4.1, §5.5); only
        /// a header block in progress forbids it (§6.10). Its payload is not kept.
        case unknown(HTTP2FrameType, flags: HTTP2FrameFlags, length: Int)
    }

    package var streamID: UInt32
    package var payload: Payload

    package init(streamID: UInt32, _ payload: Payload) {
        self.streamID = streamID
        self.payload = payload
    }

    /// The frame's type.
    package var type: HTTP2FrameType {
        switch payload {
        case .data: .data
        case .headers: .headers
        case .priority: .priority
        case .rstStream: .rstStream
        case .settings: .settings
        case .ping: .ping
        case .goAway: .goAway
        case .windowUpdate: .windowUpdate
        case .continuation: .continuation
        case let .unknown(type, _, _): type
        }
    }

    /// The bytes flow control counts for a DATA frame: its whole payload, padding included (§6.9.1).
    package var flowControlledLength: Int {
        guard case let .data(bytes, _, padding) = payload else { return 0 }
        return bytes.count + (padding.map { $0 + 1 } ?? 0)
    }
}
