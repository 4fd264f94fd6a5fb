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

    /// The parameters of a SETTINGS frame that take a side from the initial values to these.
    package var parametersChangedFromInitialValues: [HTTP2Setting] {
        let initial = HTTP2Settings()
        var parameters: [HTTP2Setting] = []
        if headerTableSize != initial.headerTableSize { parameters.append(HTTP2Setting(.headerTableSize, headerTableSize)) }
        if enablePush != initial.enablePush { parameters.append(HTTP2Setting(.enablePush, enablePush ? 1 : 0)) }
        if let maxConcurrentStreams { parameters.append(HTTP2Setting(.maxConcurrentStreams, maxConcurrentStreams)) }
        if initialWindowSize != initial.initialWindowSize { parameters.append(HTTP2Setting(.initialWindowSize, initialWindowSize)) }
        if maxFrameSize != initial.maxFrameSize { parameters.append(HTTP2Setting(.maxFrameSize, maxFrameSize)) }
        if let maxHeaderListSize { parameters.append(HTTP2Setting(.maxHeaderListSize, maxHeaderListSize)) }
        if enableConnectProtocol { parameters.append(HTTP2Setting(.enableConnectProtocol, 1)) }
        return parameters
    }

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
