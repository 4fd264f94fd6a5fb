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
        /// IMAP's greeting: a reply is `* BYE`, a drop closes.
        case imapGreeting
        /// IMAP's `LOGIN` and `AUTHENTICATE`, before the login is checked (a 5xx reply is
        /// `NO [AUTHENTICATIONFAILED]`).
        case imapLogin
        /// IMAP's `SELECT` and `EXAMINE`.
        case imapSelect
        /// IMAP's `FETCH`: a reply or drop comes before any data (421 is `* BYE`);
        /// ``Failure/dropMidway`` sends half of the messages, then `* BYE`, and closes.
        case imapFetch
        /// IMAP's `APPEND` (`[OVERQUOTA] …` as the text gives that code).
        case imapAppend
        /// IMAP's `STORE`, `COPY`, `MOVE` and `EXPUNGE`.
        case imapChange
        /// Every IMAP command, for the `user` logged in (a token that expires mid-session:
        /// `.reply(code: 421, text: "[ALERT] Token expired")`).
        case imapCommand

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
            case .imapGreeting: .imapGreeting
            case .imapLogin: .imapLogin
            case .imapSelect: .imapSelect
            case .imapFetch: .imapFetch
            case .imapAppend: .imapAppend
            case .imapChange: .imapChange
            case .imapCommand: .imapCommand
            }
        }
    }
}
