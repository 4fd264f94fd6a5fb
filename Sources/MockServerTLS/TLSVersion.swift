extension TLSSettings {
    /// A TLS protocol version, for a listener's lowest and highest.
    public enum Version: String, Sendable, CaseIterable {
        /// TLS 1.2.
        case tls12 = "1.2"
        /// TLS 1.3.
        case tls13 = "1.3"

        /// OpenSSL's number for it (`TLS1_2_VERSION`, `TLS1_3_VERSION`).
        var openSSLValue: Int {
            switch self {
            case .tls12: OpenSSLConstant.Version.tls12
            case .tls13: OpenSSLConstant.Version.tls13
            }
        }
    }
}
