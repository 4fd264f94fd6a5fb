extension TLSSettings {
    /// A server certificate that a careful client must refuse, for testing that it does.
    public enum CertificateFault: String, Sendable, CaseIterable {
        /// Signed by the test CA, but its validity ended yesterday.
        case expired
        /// Signed by the test CA, but valid only from 30 days on.
        case notYetValid = "not-yet-valid"
        /// Signed by the test CA, but for `wrong.invalid` only: no address or name the client uses.
        case wrongHost = "wrong-host"
        /// Signed by its own key, not by the test CA the client trusts.
        case selfSigned = "self-signed"
    }
}
