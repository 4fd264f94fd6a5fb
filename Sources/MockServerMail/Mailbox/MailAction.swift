/// What a mail session (POP3's, IMAP's) or a connection's dialogue asks of its connection, carried
/// out in order. SMTP's session says one thing more (a message delivered), so it has its own.
package enum MailAction: Sendable, Hashable {
    /// Sends bytes (shaped by the server's network conditions).
    case send([UInt8])
    /// Records bytes as one input of the connection in the transcript (a command, secrets masked).
    case record([UInt8])
    /// Begins TLS once everything before has been written; input received before it and not yet
    /// consumed (commands pipelined after STARTTLS or STLS) is discarded, never answered under TLS.
    case startTLS
    /// Closes the connection once everything before has been sent, for the reason given.
    case close(String)
}
