/// How an SMTP listener uses TLS (the CLI's `--tls`, `--starttls` and `--tls-required`).
package enum SMTPTLSMode: String, Sendable, Hashable {
    /// Plain text only: no STARTTLS offered.
    case none
    /// Plain text that offers STARTTLS (RFC 3207), which the client may use or not.
    case offered
    /// Plain text that offers STARTTLS and, before it, refuses every command but
    /// EHLO, HELO, NOOP, QUIT and STARTTLS with `530 5.7.0` (on loopback too); AUTH is offered only under TLS.
    case required
    /// TLS from the first byte (RFC 8314's implicit TLS): no STARTTLS.
    case implicit
}
