/// The values of one side's settings (RFC 9113 §6.5.2), starting from the RFC's initial values and
/// changed by each SETTINGS frame in order.
package struct HTTP2Settings: Hashable, Sendable {
    package var headerTableSize: UInt32 = 4096
    package var enablePush = true
    /// nil: no limit (the initial value).
    package var maxConcurrentStreams: UInt32?
    package var initialWindowSize: UInt32 = 65_535
    package var maxFrameSize: UInt32 = 16_384
    /// nil: no limit (the initial value).
    package var maxHeaderListSize: UInt32?
    package var enableConnectProtocol = false

    package init() {}

    /// Applies a SETTINGS frame's parameters in order (each already validated by the reader);
    /// unknown identifiers are ignored.
    package mutating func apply(_ settings: [HTTP2Setting]) {
        for setting in settings {
            switch setting.identifier {
            case .headerTableSize: headerTableSize = setting.value
            case .enablePush: enablePush = setting.value == 1
            case .maxConcurrentStreams: maxConcurrentStreams = setting.value
            case .initialWindowSize: initialWindowSize = setting.value
            case .maxFrameSize: maxFrameSize = setting.value
            case .maxHeaderListSize: maxHeaderListSize = setting.value
            case .enableConnectProtocol: enableConnectProtocol = setting.value == 1
            default: break
            }
        }
    }
}
