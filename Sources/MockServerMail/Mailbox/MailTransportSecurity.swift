/// How the connection that delivered a message was protected when its transaction began.
package enum MailTransportSecurity: String, Sendable, Hashable {
    /// No TLS.
    case plain
    /// TLS begun by STARTTLS (RFC 3207) on a plain connection.
    case startTLS
    /// TLS from the first byte (RFC 8314's implicit TLS, port 465).
    case implicitTLS

    /// Whether the transaction was sent over TLS.
    package var isEncrypted: Bool { self != .plain }
}
