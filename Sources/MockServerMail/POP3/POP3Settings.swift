/// What a POP3 listener's sessions are configured with: the name in the greeting's timestamp,
/// TLS, the command line bound and the SASL mechanisms offered.
package struct POP3Settings: Sendable, Hashable {
    /// The default ``lineLimit``: RFC 2449 §4's 255 octets for a command line, its CRLF included.
    package static let defaultLineLimit = 255
    /// The longest line of a SASL exchange accepted (a client's base64 response), its CRLF
    /// included: RFC 5034 §4 lifts the 255-octet limit for those lines, and an XOAUTH2 token is
    /// often longer; 8 KiB is what Dovecot's login process buffers for them.
    package static let saslLineLimit = 8192
    /// The mechanisms offered when none are named: PLAIN, the one RFC 5034 clients all have.
    package static let defaultSASLMechanisms = ["PLAIN"]

    /// The host name in the greeting's APOP timestamp (`<pid.clock@host>`).
    package var hostName: String
    /// How TLS is offered.
    package var tls: POP3TLSMode
    /// The longest command line accepted, in octets with its CRLF (RFC 2449 §4: 255). A longer
    /// one gets one `-ERR Input line too long.` and is skipped to its end, never split into
    /// several commands.
    package var lineLimit: Int
    /// The SASL mechanisms AUTH accepts and CAPA lists (upper case), in the order listed.
    package var saslMechanisms: [String]

    /// Settings for sessions of one listener.
    ///
    /// - Parameters:
    ///   - hostName: the name in the greeting's timestamp; `localhost` by default.
    ///   - tls: how TLS is offered; ``POP3TLSMode/none`` by default.
    ///   - lineLimit: the longest command line, CRLF included; at least 16 (``defaultLineLimit`` by default).
    ///   - saslMechanisms: the mechanisms offered (``defaultSASLMechanisms`` by default); names
    ///     the session does not implement are left out.
    package init(hostName: String = "localhost", tls: POP3TLSMode = .none, lineLimit: Int = POP3Settings.defaultLineLimit,
                 saslMechanisms: [String] = POP3Settings.defaultSASLMechanisms) {
        self.hostName = hostName
        self.tls = tls
        self.lineLimit = max(16, lineLimit)
        self.saslMechanisms = saslMechanisms.map { $0.uppercased() }
    }
}
