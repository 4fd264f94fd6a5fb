extension TLSSettings {
    /// A handshake that goes wrong on purpose, once the client's hello has arrived, for testing that a
    /// client survives what a broken or overloaded server does.
    ///
    /// ```swift
    /// var tls = try TLSSettings.generated()
    /// tls.handshakeFault = .alert
    /// ```
    public enum HandshakeFault: String, Sendable, CaseIterable {
        /// The server reads the ClientHello and never answers: only the client's own timeout ends the
        /// wait (or, at the server's side, ``TLSSettings/handshakeTimeout``).
        case hang
        /// The server reads the ClientHello and resets the connection (a TCP RST), as a crashing server
        /// or a middlebox does.
        case reset
        /// The server answers the ClientHello with a fatal `handshake_failure` alert, as a server that
        /// shares no version or cipher with the client does.
        case alert
    }
}
