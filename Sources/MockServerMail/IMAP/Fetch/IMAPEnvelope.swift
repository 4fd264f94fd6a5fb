/// Writes a message's ENVELOPE (RFC 3501 §7.4.2, RFC 9051 §7.5.2): date, subject, from, sender,
/// reply-to, to, cc, bcc, in-reply-to and message-id, from its header fields as they are written.
///
/// Strings are not decoded (RFC 2047 words stay, 8-bit bytes go in literals), folded lines are
/// unfolded, an absent field is `NIL` and an empty one `""`; sender and reply-to repeat from when
/// they are absent or empty; address fields that appear more than once are read together. This is
/// what Dovecot answers, except that a string holding `"` or `\` is quoted with escapes where
/// Dovecot sends a literal (IMAPOutput's one rule; both are the same string to a parser).
enum IMAPEnvelope {
    /// Writes the envelope of the message whose header is `headers` in `bytes`.
    static func write(headers: MIMEHeaderSection, in bytes: UnsafeRawBufferPointer, to output: inout IMAPOutput) {
        output.byte(0x28)
        output.nstring(IMAPHeaderText.first("date", of: headers, in: bytes))
        output.byte(0x20)
        output.nstring(IMAPHeaderText.first("subject", of: headers, in: bytes))
        let from = addresses("from", headers, bytes)
        let sender = addresses("sender", headers, bytes)
        let replyTo = addresses("reply-to", headers, bytes)
        for list in [from, sender.isEmpty ? from : sender, replyTo.isEmpty ? from : replyTo,
                     addresses("to", headers, bytes), addresses("cc", headers, bytes), addresses("bcc", headers, bytes)] {
            output.byte(0x20)
            write(list, to: &output)
        }
        output.byte(0x20)
        output.nstring(IMAPHeaderText.first("in-reply-to", of: headers, in: bytes))
        output.byte(0x20)
        output.nstring(IMAPHeaderText.first("message-id", of: headers, in: bytes))
        output.byte(0x29)
    }

    /// The envelope of a message whose header could not be read (a message/rfc822 part in base64):
    /// every member `NIL`, as Dovecot writes it.
    static func writeEmpty(to output: inout IMAPOutput) {
        output.text("(NIL NIL NIL NIL NIL NIL NIL NIL NIL NIL)")
    }

    /// The addresses of every field named `name`.
    private static func addresses(_ name: String, _ headers: MIMEHeaderSection, _ bytes: UnsafeRawBufferPointer) -> [IMAPEnvelopeAddress] {
        IMAPHeaderText.all(name, of: headers, in: bytes).flatMap(IMAPAddressListReader.addresses)
    }

    /// `(addr addr …)`, or `NIL` for none.
    private static func write(_ list: [IMAPEnvelopeAddress], to output: inout IMAPOutput) {
        guard !list.isEmpty else {
            output.text("NIL")
            return
        }
        output.byte(0x28)
        for address in list { address.write(to: &output) }
        output.byte(0x29)
    }
}
