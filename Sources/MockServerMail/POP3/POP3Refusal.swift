/// Why a command's message number or count was refused, as Dovecot words it.
struct POP3Refusal: Error {
    /// The text after `-ERR `.
    let text: String

    /// The `-ERR` line.
    var reply: MailAction { POP3Session.error(text) }
}
