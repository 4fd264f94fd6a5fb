/// A point in a mail dialogue where a test may make the server fail on demand: the greeting, a
/// verb, or the end of a message's data.
package enum MailFaultPoint: String, Sendable, Hashable, CaseIterable {
    /// The SMTP greeting (`220`), before any command.
    case smtpGreeting = "smtp.greeting"
    /// `EHLO` or `HELO`.
    case smtpHello = "smtp.ehlo"
    /// `AUTH`, before its first challenge.
    case smtpAuth = "smtp.auth"
    /// `MAIL FROM`.
    case smtpMail = "smtp.mail"
    /// Each `RCPT TO`.
    case smtpRecipient = "smtp.rcpt"
    /// `DATA`, before its `354`.
    case smtpData = "smtp.data"
    /// The end of a message's data (the `.` after DATA, or `BDAT … LAST`), before it is stored.
    case smtpEndOfData = "smtp.end-of-data"
    /// Each `BDAT` chunk, once all of it has arrived.
    case smtpChunk = "smtp.bdat"
    /// The POP3 greeting (`+OK`), before any command.
    case pop3Greeting = "pop3.greeting"
    /// POP3's `USER`.
    case pop3User = "pop3.user"
    /// POP3's `PASS`, `APOP` or `AUTH`, before the login is checked.
    case pop3Pass = "pop3.pass"
    /// POP3's `RETR` (and `TOP`).
    case pop3Retrieve = "pop3.retr"
}
