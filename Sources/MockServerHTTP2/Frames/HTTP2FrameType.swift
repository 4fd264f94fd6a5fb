/// A frame's type (RFC 9113 §6, §11.2). Types this side does not know are kept as read, and ignored (§4.1).
package struct HTTP2FrameType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    package static let data = Self(rawValue: 0x0)
    package static let headers = Self(rawValue: 0x1)
    package static let priority = Self(rawValue: 0x2)
    package static let rstStream = Self(rawValue: 0x3)
    package static let settings = Self(rawValue: 0x4)
    package static let pushPromise = Self(rawValue: 0x5)
    package static let ping = Self(rawValue: 0x6)
    package static let goAway = Self(rawValue: 0x7)
    package static let windowUpdate = Self(rawValue: 0x8)
    package static let continuation = Self(rawValue: 0x9)

    static let names = ["DATA", "HEADERS", "PRIORITY", "RST_STREAM", "SETTINGS", "PUSH_PROMISE", "PING", "GOAWAY",
                        "WINDOW_UPDATE", "CONTINUATION"]

    /// The RFC's name, or `0x…` for a type it does not define.
    package var description: String {
        rawValue < Self.names.count ? Self.names[Int(rawValue)] : "0x" + String(rawValue, radix: 16)
    }
}
