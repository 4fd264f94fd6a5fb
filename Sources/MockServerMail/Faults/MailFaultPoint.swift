/// A point in a mail dialogue where a test may make the server fail on demand: the greeting, a
/// verb, or the end of a message's data, in SMTP, POP3 or IMAP.
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
    /// The IMAP greeting (`* OK`), before any command.
    case imapGreeting = "imap.greeting"
    /// IMAP's `LOGIN` and `AUTHENTICATE` (once its exchange has named the user), before the login is checked.
    case imapLogin = "imap.login"
    /// IMAP's `SELECT` and `EXAMINE`.
    case imapSelect = "imap.select"
    /// IMAP's `FETCH` (and `UID FETCH`): a reply or drop comes before any data; `dropMidway`
    /// sends the data of half of the messages asked for, then `* BYE`, and closes.
    case imapFetch = "imap.fetch"
    /// IMAP's `APPEND`, once its message has arrived.
    case imapAppend = "imap.append"
    /// IMAP's `STORE`, `COPY`, `MOVE` and `EXPUNGE` (and their UID forms).
    case imapChange = "imap.change"
    /// Every IMAP command, before it is answered (a login whose token expires mid-session: the
    /// user is the subject once logged in).
    case imapCommand = "imap.command"
}
