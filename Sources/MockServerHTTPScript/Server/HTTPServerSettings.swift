import MockServerEngine
import MockServerHTTP

extension MockServer {
    /// What a server's HTTP/1.1 connections take from a client before they refuse: HTTP's part of the
    /// server's configuration, kept in ``MockServer/Configuration/settings`` under its own type.
    ///
    /// ```swift
    /// var configuration = MockServer.Configuration()
    /// configuration.httpSettings.maximumRequestBodySize = 1 << 20
    /// configuration.httpSettings.requestHeadTimeout = .seconds(5)
    /// ```
    public struct HTTPServerSettings: Sendable, Hashable {
        /// The longest HTTP/1.1 request body taken, in bytes (64 MiB by default; chunk framing
        /// counts): a longer one is answered `413 Content Too Large`, naming the limit, as soon as
        /// its `Content-Length` or its chunk sizes say so, and its connection closes. A body is held
        /// whole in memory until its request is answered, so this bounds what one client's upload costs.
        /// An HTTP/2 stream's body meets the same limit: past it the stream is answered `413`, and the
        /// rest of its body is read and dropped.
        public var maximumRequestBodySize: Int
        /// How long an HTTP/1.1 request head may take from its first byte to its blank line (60 s
        /// by default, as nginx's `client_header_timeout`): past it the client gets `408 Request
        /// Timeout` and the connection closes, so that a client sending a byte a minute (slowloris)
        /// does not hold a connection for ever. `nil` waits without end.
        public var requestHeadTimeout: Duration?

        /// Settings with these limits; the defaults are the documented ones.
        public init(maximumRequestBodySize: Int = 64 << 20, requestHeadTimeout: Duration? = .seconds(60)) {
            self.maximumRequestBodySize = maximumRequestBodySize
            self.requestHeadTimeout = requestHeadTimeout
        }

        /// The limits a connection's parser and head timer apply.
        package var requestLimits: HTTPRequestLimits {
            HTTPRequestLimits(maximumBodyLength: maximumRequestBodySize, headTimeout: requestHeadTimeout)
        }
    }
}
