/// How a listener speaks TLS: the identity it shows and what it accepts.
///
/// ```swift
/// var tls = try TLSSettings(identity: .generated())
/// tls.minimumVersion = .tls13
/// ```
public struct TLSSettings: Sendable {
    /// When a connection's TLS begins.
    public enum Mode: String, Sendable {
        /// With its first byte: HTTPS, implicit FTPS (`ftps://`).
        case implicit
        /// When a script's `«starttls»` says so, after its reply: FTP's `AUTH TLS`, SMTP's
        /// `STARTTLS`. Until then the connection is plain text.
        case explicit
    }

    /// Whether a server asks clients for certificates.
    public enum ClientCertificates: String, Sendable {
        /// Clients are not asked.
        case none
        /// Clients are asked; one without a certificate goes on, one with a certificate that does
        /// not chain to a trusted CA is refused.
        case optional
        /// Clients must show a certificate that chains to a trusted CA; the handshake fails otherwise.
        case required
    }

    /// The certificate and key the server shows.
    public var identity: TLSSettings.Identity
    /// When connections begin TLS: ``Mode-swift.enum/implicit`` by default.
    public var mode = Mode.implicit
    /// The lowest version accepted; `nil`: OpenSSL's default (TLS 1.2).
    public var minimumVersion: TLSSettings.Version?
    /// The highest version accepted; `nil`: the highest OpenSSL has.
    public var maximumVersion: TLSSettings.Version?
    /// Whether clients must show a certificate (mutual TLS); ``ClientCertificates-swift.enum/none`` by default.
    public var clientCertificates = ClientCertificates.none
    /// The CAs (PEM) a client's certificate must chain to; `nil`: the identity's test CA (whose
    /// ``TLSSettings.Identity/clientCertificate(commonName:)`` makes client certificates).
    public var trustedClientCAs: [String]?
    /// Whether an FTPS data connection must resume the TLS session of its control connection, as
    /// vsftpd's `require_ssl_reuse` demands: one that does not is closed, and the transfer answers
    /// `522`. `false` by default.
    public var requireSessionReuse = false
    /// Whether plain-text connections are refused where a script says how (`{"requireTLS": […]}`,
    /// as the bundled `ftp.json` does for `USER` and `PASS` before `AUTH TLS`, like vsftpd's
    /// `force_local_logins_ssl`). `false` by default.
    public var requireTLS = false
    /// At most this many bytes of ciphertext are taken from the socket at a time (tests set 1, so
    /// that every record arrives in pieces); `nil`: as many as there are.
    package var ciphertextReadLimit: Int?
    /// How long a client has to finish its handshake before the connection is closed (10 s).
    public var handshakeTimeout: Duration = .seconds(10)
    /// A handshake that goes wrong on purpose for every connection; `nil` (the default): none.
    public var handshakeFault: TLSSettings.HandshakeFault?
    /// Whether connections end with TLS's `close_notify` alert before the TCP close (`true`, as
    /// servers should). `false` ends them with a bare TCP close, the truncation a careful client
    /// must report rather than take the data as complete.
    public var sendsCloseNotify = true

    /// A configuration showing `identity`, beginning TLS as `mode` says.
    public init(identity: TLSSettings.Identity, mode: Mode = .implicit) {
        self.identity = identity
        self.mode = mode
    }

    /// A configuration with a freshly generated test identity for `hostNames` (besides `127.0.0.1`,
    /// `::1` and `localhost`), with a certificate `fault` when one is given.
    ///
    /// - Throws: ``TLSError`` when OpenSSL 3 is missing or refuses.
    public static func generated(hostNames: [String] = [], mode: Mode = .implicit, fault: TLSSettings.CertificateFault? = nil) throws(TLSError) -> TLSSettings {
        TLSSettings(identity: try .generated(hostNames: hostNames, fault: fault), mode: mode)
    }
}
