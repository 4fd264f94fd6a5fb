/// What an HTTP/1.1 connection takes from its client before it refuses: the longest body, and how
/// long a request head may take to arrive. The server's configuration gives them
/// (`MockServer.Configuration.maximumRequestBodySize` and `requestHeadTimeout`).
package struct HTTPRequestLimits: Sendable, Equatable {
    /// The longest request body taken, in bytes (chunk framing included): a longer one is answered
    /// `413 Content Too Large` as soon as its `Content-Length` or chunk sizes say so, before its
    /// bytes are kept.
    package var maximumBodyLength: Int
    /// How long a request head may take from its first byte to its blank line before it is answered
    /// `408 Request Timeout` and the connection closes; `nil` for no limit.
    package var headTimeout: Duration?

    /// The default body limit: 64 MiB (the fixed limit it had before it was a setting).
    package static let defaultMaximumBodyLength = 64 << 20
    /// The default head timeout: 60 seconds, as nginx's `client_header_timeout`.
    package static let defaultHeadTimeout = Duration.seconds(60)

    /// Limits of `maximumBodyLength` bytes and `headTimeout`.
    package init(maximumBodyLength: Int = defaultMaximumBodyLength, headTimeout: Duration? = defaultHeadTimeout) {
        self.maximumBodyLength = max(0, maximumBodyLength)
        self.headTimeout = headTimeout.flatMap { $0 > .zero ? $0 : nil }
    }
}
