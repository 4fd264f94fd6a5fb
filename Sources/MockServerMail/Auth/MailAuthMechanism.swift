/// A SASL mechanism (RFC 4422) the mail servers offer: SMTP's `AUTH` (RFC 4954), POP3's `AUTH`
/// (RFC 5034) and IMAP's `AUTHENTICATE` name them with these spellings.
package enum MailAuthMechanism: String, Sendable, Hashable, CaseIterable {
    /// RFC 4616: `authzid NUL authcid NUL password` in one response.
    case plain = "PLAIN"
    /// The de-facto `LOGIN` (draft-murchison-sasl-login): `Username:` then `Password:`.
    case login = "LOGIN"
    /// RFC 2195: the server's `<unique@host>` challenge, answered `user hex(HMAC-MD5(password, challenge))`.
    case cramMD5 = "CRAM-MD5"
    /// Google's XOAUTH2: `user=… ^A auth=Bearer token ^A^A`; here the token is the account's password.
    case xoauth2 = "XOAUTH2"

    /// The mechanism named `name` in any case (`plain`, `Cram-MD5`), or nil for one not offered here.
    package init?(name: some StringProtocol) {
        self.init(rawValue: name.uppercased())
    }
}
