import MockServerEngine
import MockServerMail

extension MockServer.Mail {
    /// Where a mail server can be made to fail.
    public enum Point: String, Sendable, CaseIterable {
        /// SMTP's greeting, before any command.
        case greeting
        /// `EHLO` or `HELO`.
        case hello
        /// SMTP's `AUTH`, before its first challenge: a rule for one `user` applies only where the
        /// command names the user at once (PLAIN or XOAUTH2 with an initial response, LOGIN's).
        case authentication
        /// `MAIL FROM`.
        case sender
        /// Each `RCPT TO`.
        case recipient
        /// `DATA`, before its `354`.
        case data
        /// The end of a message's data, before it is stored.
        case endOfData
        /// Each `BDAT` chunk.
        case chunk
        /// POP3's greeting.
        case pop3Greeting
        /// POP3's `USER`.
        case pop3User
        /// POP3's `PASS`, `APOP` or `AUTH`.
        case pop3Password
        /// POP3's `RETR` and `TOP`.
        case pop3Retrieve

        /// The sessions' name of the point.
        var faultPoint: MailFaultPoint {
            switch self {
            case .greeting: .smtpGreeting
            case .hello: .smtpHello
            case .authentication: .smtpAuth
            case .sender: .smtpMail
            case .recipient: .smtpRecipient
            case .data: .smtpData
            case .endOfData: .smtpEndOfData
            case .chunk: .smtpChunk
            case .pop3Greeting: .pop3Greeting
            case .pop3User: .pop3User
            case .pop3Password: .pop3Pass
            case .pop3Retrieve: .pop3Retrieve
            }
        }
    }
}
