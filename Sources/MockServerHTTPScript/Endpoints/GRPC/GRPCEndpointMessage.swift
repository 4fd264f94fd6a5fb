import MockServerCore

/// One message of an endpoint's gRPC answer: bytes as given (`base64`, `hex`, `file`), or JSON in
/// the proto3 mapping (`json`) with `${…}` values, converted by the method's schema; and the wait
/// before it.
package struct GRPCEndpointMessage: Sendable {
    /// What the message is.
    package enum Content: Sendable {
        /// Bytes, sent as they are.
        case bytes([UInt8])
        /// JSON with values from the request; `constant`: its bytes, converted once at load, when it
        /// has no `${…}` value.
        case json(EndpointJSON, constant: [UInt8]?)
    }

    package var content: Content
    /// The wait before it is sent.
    package var delay: Duration?

    package init(_ content: Content, delay: Duration? = nil) {
        self.content = content
        self.delay = delay
    }

    /// The bytes, converted once, when they are the same for every call.
    package var constantBytes: [UInt8]? {
        switch content {
        case .bytes(let bytes): bytes
        case .json(_, let constant): constant
        }
    }
}
