/// How a mail listener (SMTP, POP3, IMAP) offers TLS: the CLI's `--tls`, `--starttls` and
/// `--tls-required`.
package enum MailTLSMode: String, Sendable, Hashable {
    /// Plain text only: no STARTTLS (SMTP, IMAP) or STLS (POP3) offered.
    case none
    /// Plain text that offers STARTTLS or STLS (RFC 3207, RFC 2595), which the client may use or not.
    case offered
    /// Plain text that offers STARTTLS or STLS and refuses every login (and SMTP every command but
    /// EHLO, HELO, NOOP, QUIT and STARTTLS, with `530 5.7.0`) before it, on loopback too; IMAP
    /// says `LOGINDISABLED` (RFC 9051 §6.2.3).
    case required
    /// TLS from the first byte (RFC 8314's implicit TLS): the driver does the handshake before the
    /// session starts, and STARTTLS is refused as TLS is already active.
    case implicit
}
