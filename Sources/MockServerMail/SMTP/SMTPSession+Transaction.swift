extension SMTPSession {
    /// The mail transaction under way (RFC 5321 §3.3): from `MAIL` to the end of its data or `RSET`.
    struct Transaction {
        /// `MAIL FROM`'s address; empty for `<>`.
        var sender: String
        /// Whether `MAIL` declared `SMTPUTF8`, allowing UTF-8 addresses.
        var utf8: Bool
        /// The accepted `RCPT TO` addresses, in order.
        var recipients: [String] = []
        /// The message's bytes so far (dot-stuffing undone), at most the size limit.
        var body: [UInt8] = []
        /// A BDAT chunk has been taken: DATA and RCPT are out of sequence now.
        var chunked = false
    }

    /// The client's `EHLO`/`HELO`.
    struct Hello {
        /// The name the client gave.
        var name: String
        /// `EHLO` (extended) rather than `HELO`.
        var extended: Bool
    }
}
