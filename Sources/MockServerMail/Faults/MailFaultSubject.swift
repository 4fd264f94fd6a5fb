/// Who a fault is asked about, so that a rule may fail only for a given sender, recipient or user.
/// Each part is `nil` where the dialogue has not named it yet.
package struct MailFaultSubject: Sendable, Hashable {
    /// The transaction's `MAIL FROM` address, without angle brackets.
    package var sender: String?
    /// The `RCPT TO` address being asked about (at ``MailFaultPoint/smtpRecipient``), without angle brackets.
    package var recipient: String?
    /// The login name given (SMTP `AUTH`, POP3 `USER`, `APOP` or `AUTH`).
    package var user: String?

    package init(sender: String? = nil, recipient: String? = nil, user: String? = nil) {
        self.sender = sender
        self.recipient = recipient
        self.user = user
    }
}
