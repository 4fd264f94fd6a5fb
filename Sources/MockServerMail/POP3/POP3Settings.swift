/// What a POP3 listener's sessions are configured with: the name in the greeting's timestamp,
/// TLS, the line bounds and the SASL mechanisms offered.
package struct POP3Settings: Sendable, Hashable {
    /// The default ``commandLineLimit``: RFC 2449 §4's 255 octets for a command line, its CRLF
    /// included.
    package static let defaultCommandLineLimit = 255
    /// The default ``authenticationLineLimit``: 12,288 octets, the figure RFC 4954 §4 gives SMTP's
    /// AUTH lines (SMTP's sessions use it too), so that an XOAUTH2 token fits.
    package static let defaultAuthenticationLineLimit = 12_288

    /// The host name in the greeting's APOP timestamp (`<pid.clock@host>`).
    package var hostName: String
    /// How TLS is offered.
    package var tls: MailTLSMode
    /// The longest command line accepted, in octets with its CRLF (RFC 2449 §4: 255). A longer
    /// one gets one `-ERR Input line too long.` and is skipped to its end, never split into
    /// several commands. An AUTH command with its initial response is a command line too
    /// (RFC 5034 §4: a client whose initial response would not fit sends it after the challenge).
    package var commandLineLimit: Int
    /// The longest line a client sends inside an AUTH exchange (a base64 response), CRLF
    /// included; a longer one ends the exchange with `-ERR Input line too long.`.
    package var authenticationLineLimit: Int
    /// The SASL mechanisms AUTH accepts and CAPA lists, in the order listed; empty offers none.
    package var authenticationMechanisms: [MailAuthMechanism]

    /// Settings for the sessions of one listener.
    ///
    /// - Parameters:
    ///   - hostName: the name in the greeting's timestamp; `localhost` by default.
    ///   - tls: how TLS is offered; ``MailTLSMode/none`` by default.
    ///   - commandLineLimit: the longest command line, CRLF included; at least 16
    ///     (``defaultCommandLineLimit`` by default).
    ///   - authenticationLineLimit: the longest line of an AUTH exchange, at least the command
    ///     line limit (``defaultAuthenticationLineLimit`` by default).
    ///   - authenticationMechanisms: the mechanisms offered; all of them by default, as SMTP offers.
    package init(hostName: String = "localhost", tls: MailTLSMode = .none,
                 commandLineLimit: Int = POP3Settings.defaultCommandLineLimit,
                 authenticationLineLimit: Int = POP3Settings.defaultAuthenticationLineLimit,
                 authenticationMechanisms: [MailAuthMechanism] = MailAuthMechanism.allCases) {
        self.hostName = hostName
        self.tls = tls
        self.commandLineLimit = max(16, commandLineLimit)
        self.authenticationLineLimit = max(self.commandLineLimit, authenticationLineLimit)
        self.authenticationMechanisms = authenticationMechanisms
    }
}
