/// What a login attempt came to, and why when refused.
package enum MailLoginResult: Sendable, Equatable {
    /// The login is accepted; the session reads this address's mailbox.
    case accepted(MailboxAddress)
    /// Accounts are configured and none has this name.
    case unknownUser
    /// The account exists and the password (or digest, or XOAUTH2 token) does not match.
    case wrongPassword

    /// Whether the login is accepted.
    package var isAccepted: Bool {
        if case .accepted = self { true } else { false }
    }
}
