import MockServerCore

/// Where a stored message came from: an SMTP transaction, a seed file, or an IMAP APPEND.
package enum MailOrigin: Sendable {
    /// An SMTP transaction: the client's `EHLO`/`HELO` name, its address, whether the connection
    /// was under TLS, and the user it authenticated as (nil without AUTH).
    case smtp(heloName: String, client: NetworkAddress?, security: MailTransportSecurity, user: String?)
    /// A file of the seed (`--mail-dir`), by its path.
    case seed(path: String)
    /// An IMAP APPEND by the logged-in address, into the folder named.
    case append(address: String, folder: String)
}
