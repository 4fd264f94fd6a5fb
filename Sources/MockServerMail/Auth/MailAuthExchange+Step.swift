extension MailAuthExchange {
    /// What the server does next in an exchange.
    package enum Step: Sendable, Equatable {
        /// Sends a challenge: the raw bytes, which the protocol base64-encodes and frames (SMTP's
        /// `334 `, POP3's and IMAP's `+ `). An empty challenge is an empty line after the prefix.
        case challenge([UInt8])
        /// The login is accepted, as this mailbox.
        case accepted(MailboxAddress)
        /// The login named `user` is refused, for the reason given (unknown user or wrong password).
        case refused(user: String, MailLoginResult)
        /// The client's response cannot be read (not base64, or not the mechanism's shape): the
        /// reason, in a few words for the transcript. The exchange is over.
        case malformed(String)
        /// The client cancelled with `*` (RFC 4422 §3.5). The exchange is over.
        case cancelled
    }
}
