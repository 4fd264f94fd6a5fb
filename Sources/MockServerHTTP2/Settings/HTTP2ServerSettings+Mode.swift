import MockServerEngine

extension MockServer.HTTP2ServerSettings {
    /// Whether the server's HTTP listeners speak HTTP/2 beside HTTP/1.1 (`mockserver --http2`).
    ///
    /// ```swift
    /// var configuration = MockServer.Configuration()
    /// configuration.http2Settings.mode = .refuse
    /// ```
    public enum Mode: String, Sendable, CaseIterable {
        /// HTTP/1.1 and HTTP/2 (h2c with prior knowledge on plain listeners, `h2` through ALPN under
        /// TLS): the default.
        case allow
        /// HTTP/1.1 only: the HTTP/2 preface is answered `400 Bad Request`, and TLS offers no `h2`.
        case refuse
        /// HTTP/2 only: an HTTP/1.1 request is answered `505 HTTP Version Not Supported`, naming
        /// the mode, and its connection closed.
        case require
    }
}
