import MockServerHTTP

/// An HTTP/2 error code (RFC 9113 §7), as RST_STREAM and GOAWAY carry it. Codes this side does not
/// know are kept as they came (§7: they must not trigger special behaviour).
package struct HTTP2ErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    package let rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }

    package static let noError = Self(rawValue: 0x0)
    package static let protocolError = Self(rawValue: 0x1)
    package static let internalError = Self(rawValue: 0x2)
    package static let flowControlError = Self(rawValue: 0x3)
    package static let settingsTimeout = Self(rawValue: 0x4)
    package static let streamClosed = Self(rawValue: 0x5)
    package static let frameSizeError = Self(rawValue: 0x6)
    package static let refusedStream = Self(rawValue: 0x7)
    package static let cancel = Self(rawValue: 0x8)
    package static let compressionError = Self(rawValue: 0x9)
    package static let connectError = Self(rawValue: 0xA)
    package static let enhanceYourCalm = Self(rawValue: 0xB)
    package static let inadequateSecurity = Self(rawValue: 0xC)
    package static let http11Required = Self(rawValue: 0xD)

    /// The RFC's names, in code order: HTTP's list, which endpoints files and scripts are checked against.
    static var names: [String] { HTTPStreamFault.errorNames }

    /// The code the RFC names `name` (`"REFUSED_STREAM"`), or nil for a name it does not define.
    package init?(name: String) {
        guard let code = Self.names.firstIndex(of: name) else { return nil }
        rawValue = UInt32(code)
    }

    /// The RFC's name, or `0x…` for a code it does not define.
    package var description: String {
        rawValue < Self.names.count ? Self.names[Int(rawValue)] : "0x" + String(rawValue, radix: 16)
    }
}
