/// What a mail session does at a fault point instead of its own answer.
package enum MailFaultDecision: Sendable, Hashable {
    /// Answers with `code` and `text` (an SMTP reply code such as 451, or for POP3 any code,
    /// answered as `-ERR text`), and goes on as the protocol says after that answer.
    case reply(code: Int, text: String)
    /// Closes the connection at once, with no answer.
    case drop
    /// Closes the connection half-way: after part of a message's data has arrived (SMTP's DATA or
    /// BDAT) or part of a message has been sent (POP3's RETR); at other points the same as ``drop``.
    case dropMidway
}
