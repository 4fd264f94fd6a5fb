/// The envelope of one SMTP transaction (RFC 5321 §2.3.1): the reverse path, the recipients, and
/// where the transaction came from. The message's own `To`, `Cc` and `From` are in its bytes.
package struct MailEnvelope: Sendable {
    /// `MAIL FROM`'s address, without angle brackets; empty for the null reverse path (`<>`).
    package var sender: String
    /// Each `RCPT TO` address accepted, in order, without angle brackets.
    package var recipients: [String]
    /// The connection and session state the transaction came with.
    package var origin: MailOrigin

    package init(sender: String, recipients: [String], origin: MailOrigin) {
        self.sender = sender
        self.recipients = recipients
        self.origin = origin
    }
}
