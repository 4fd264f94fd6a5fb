/// One parameter of a SETTINGS frame (RFC 9113 §6.5.1): an identifier and a 32-bit value.
package struct HTTP2Setting: Hashable, Sendable, CustomStringConvertible {
    /// A setting's identifier (§6.5.2, §11.3). Identifiers this side does not know are kept as
    /// read, and ignored (§6.5.2).
    package struct Identifier: RawRepresentable, Hashable, Sendable {
        package let rawValue: UInt16
        package init(rawValue: UInt16) { self.rawValue = rawValue }

        package static let headerTableSize = Self(rawValue: 0x1)
        package static let enablePush = Self(rawValue: 0x2)
        package static let maxConcurrentStreams = Self(rawValue: 0x3)
        package static let initialWindowSize = Self(rawValue: 0x4)
        package static let maxFrameSize = Self(rawValue: 0x5)
        package static let maxHeaderListSize = Self(rawValue: 0x6)
        /// RFC 8441's extended CONNECT (WebSocket over HTTP/2).
        package static let enableConnectProtocol = Self(rawValue: 0x8)
        /// RFC 9218: the sender does not use RFC 7540's priority signals.
        package static let noRFC7540Priorities = Self(rawValue: 0x9)

        static let names: [UInt16: String] = [
            0x1: "SETTINGS_HEADER_TABLE_SIZE", 0x2: "SETTINGS_ENABLE_PUSH", 0x3: "SETTINGS_MAX_CONCURRENT_STREAMS",
            0x4: "SETTINGS_INITIAL_WINDOW_SIZE", 0x5: "SETTINGS_MAX_FRAME_SIZE", 0x6: "SETTINGS_MAX_HEADER_LIST_SIZE",
            0x8: "SETTINGS_ENABLE_CONNECT_PROTOCOL", 0x9: "SETTINGS_NO_RFC7540_PRIORITIES",
        ]

        /// The RFC's name, or `0x…` for an identifier it does not define.
        package var name: String { Self.names[rawValue] ?? "0x" + String(rawValue, radix: 16) }
    }

    package var identifier: Identifier
    package var value: UInt32

    package init(_ identifier: Identifier, _ value: UInt32) {
        self.identifier = identifier
        self.value = value
    }

    package var description: String { "\(identifier.name)=\(value)" }

    /// The largest flow-control window (§6.9.1): 2^31 - 1.
    package static let maximumWindowSize: UInt32 = 0x7FFF_FFFF
    /// The range SETTINGS_MAX_FRAME_SIZE may take (§6.5.2): 2^14 to 2^24 - 1.
    package static let frameSizeRange: ClosedRange<UInt32> = 16_384...16_777_215

    /// Fails when the value is outside its parameter's bounds (§6.5.2): a connection error,
    /// FLOW_CONTROL_ERROR for a window past 2^31 - 1, PROTOCOL_ERROR for the others.
    package func validate() throws(HTTP2Error) {
        switch identifier {
        case .enablePush, .enableConnectProtocol, .noRFC7540Priorities:
            guard value <= 1 else { throw HTTP2Error(.protocolError, "\(identifier.name) is \(value), not 0 or 1") }
        case .initialWindowSize:
            guard value <= Self.maximumWindowSize else {
                throw HTTP2Error(.flowControlError, "SETTINGS_INITIAL_WINDOW_SIZE is \(value), past 2^31-1")
            }
        case .maxFrameSize:
            guard Self.frameSizeRange.contains(value) else {
                throw HTTP2Error(.protocolError, "SETTINGS_MAX_FRAME_SIZE is \(value), outside 16384...16777215")
            }
        default:
            break
        }
    }
}
