/// How a POP3 listener offers TLS: not at all, by STLS (RFC 2595) or from the first byte.
package enum POP3TLSMode: Sendable, Hashable {
    /// Plain only: STLS is not offered (`-ERR TLS support isn't enabled.`).
    case none
    /// Plain, with STLS offered in CAPA; logins are accepted without TLS too (`--starttls`).
    case offered
    /// Plain, with STLS offered, and before TLS only CAPA, STLS and QUIT are answered; every
    /// login command is refused, on loopback too (`--starttls --tls-required`).
    case required
    /// TLS from the first byte (RFC 8314, port 995, `--tls`): the driver does the handshake
    /// before ``POP3Session/start()``, and STLS is refused as TLS is already active.
    case implicit
}
