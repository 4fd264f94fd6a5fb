/// What an ``SMTPSession`` asks of its connection, carried out in order.
package enum SMTPAction: Sendable {
    /// Sends these bytes (one or more complete replies, CRLF-terminated).
    case send([UInt8])
    /// Begins the TLS handshake (after the `220` to STARTTLS has been sent); once it succeeds, call
    /// ``SMTPSession/tlsStarted()``. Input held by the connection at this point is plain text sent
    /// before the handshake: it must be dropped, never read as a command (RFC 3207 §4.2).
    case startTLS
    /// Records one line of input in the transcript, as it should show it: each command line
    /// without its line end, AUTH's credentials masked as `MASKED` (the package's word for a hidden value).
    case record([UInt8])
    /// A message was stored (after the end of its data, before its `250`).
    case delivered(MailTransaction)
    /// Closes the connection once everything before has been sent, for this reason (a few words).
    case close(String)
}
