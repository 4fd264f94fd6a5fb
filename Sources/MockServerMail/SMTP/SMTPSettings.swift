/// What an SMTP session is configured with: its name, its limits, TLS and AUTH.
package struct SMTPSettings: Sendable {
    /// The default ``maximumMessageSize``: Postfix's `message_size_limit`, 10,240,000 bytes.
    package static let defaultMaximumMessageSize = 10_240_000
    /// The default ``maximumRecipients``: Postfix's `smtpd_recipient_limit`, 1,000.
    package static let defaultMaximumRecipients = 1_000

    /// The server's name in the greeting and EHLO's first line.
    package var hostName: String
    /// The most bytes a message may have (after DATA's dot-unstuffing), announced as `SIZE` in
    /// EHLO; a `MAIL … SIZE=` above it, or a message that grows past it, gets `552 5.3.4`.
    package var maximumMessageSize: Int
    /// The most recipients a transaction may have; each `RCPT` past it gets `452 4.5.3`.
    /// RFC 5321 §4.5.3.1.8 asks a server to take at least 100.
    package var maximumRecipients: Int
    /// The longest command line, its CRLF included (RFC 5321 §4.5.3.1.4: 512); a longer one gets
    /// one `500 5.5.2`, and the rest of it up to its line end is discarded, never held.
    package var commandLineLimit: Int
    /// The longest AUTH command line and AUTH answer line, CRLF included (RFC 4954 §4: 12,288),
    /// so that an XOAUTH2 token fits.
    package var authenticationLineLimit: Int
    /// The longest text line in DATA, CRLF included (RFC 5321 §4.5.3.1.6: 1,000); a message with a
    /// longer line is refused at its end with `500 5.5.2`, as aiosmtpd does.
    package var textLineLimit: Int
    /// How TLS is used.
    package var tls: MailTLSMode
    /// The SASL mechanisms offered in EHLO's `AUTH`, in order; empty offers no AUTH.
    package var authenticationMechanisms: [MailAuthMechanism]
    /// Whether `MAIL` needs a successful `AUTH` first (`530 5.7.0` otherwise).
    package var requiresAuthentication: Bool

    /// Settings with each limit at its default.
    package init(hostName: String = "localhost", maximumMessageSize: Int = SMTPSettings.defaultMaximumMessageSize,
                 maximumRecipients: Int = SMTPSettings.defaultMaximumRecipients, commandLineLimit: Int = 512,
                 authenticationLineLimit: Int = 12_288, textLineLimit: Int = 1_000, tls: MailTLSMode = .none,
                 authenticationMechanisms: [MailAuthMechanism] = MailAuthMechanism.allCases, requiresAuthentication: Bool = false) {
        self.hostName = hostName
        // At least 1: SIZE 0 would tell clients there is no limit (RFC 1870 §4).
        self.maximumMessageSize = max(1, maximumMessageSize)
        self.maximumRecipients = max(1, maximumRecipients)
        self.commandLineLimit = max(16, commandLineLimit)
        self.authenticationLineLimit = max(self.commandLineLimit, authenticationLineLimit)
        self.textLineLimit = max(16, textLineLimit)
        self.tls = tls
        self.authenticationMechanisms = authenticationMechanisms
        self.requiresAuthentication = requiresAuthentication
    }
}
