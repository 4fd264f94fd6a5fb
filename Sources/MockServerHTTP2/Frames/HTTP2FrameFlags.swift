/// A frame's flags byte (RFC 9113 §4.1); which bits mean what depends on the type.
package struct HTTP2FrameFlags: OptionSet, Hashable, Sendable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// DATA, HEADERS: the sender's last frame on the stream.
    package static let endStream = Self(rawValue: 0x1)
    /// SETTINGS, PING: an acknowledgement.
    package static let ack = Self(rawValue: 0x1)
    /// HEADERS, PUSH_PROMISE, CONTINUATION: the field block ends here.
    package static let endHeaders = Self(rawValue: 0x4)
    /// DATA, HEADERS, PUSH_PROMISE: a pad length byte comes first, padding last.
    package static let padded = Self(rawValue: 0x8)
    /// HEADERS: exclusive flag, stream dependency and weight come first.
    package static let priority = Self(rawValue: 0x20)
}
