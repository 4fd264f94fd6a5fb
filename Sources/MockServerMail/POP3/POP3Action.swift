/// What a ``POP3Session`` asks of its connection, to be carried out in order by the driver that
/// owns the socket: the session itself never touches one.
package enum POP3Action: Sendable, Hashable {
    /// Sends these bytes: one or more whole replies (a status line, or a multi-line answer with
    /// its terminating `.` line).
    case send([UInt8])
    /// Begins the TLS handshake (STLS was answered `+OK`), once everything before it is sent.
    /// The session discards all plain input from then on, until ``POP3Session/tlsStarted()``.
    case startTLS
    /// Records one command line as the transcript shows it (no line terminator), with secrets
    /// replaced by `MASKED`: `PASS MASKED`, `APOP name MASKED`, `AUTH PLAIN MASKED`, and each
    /// line of a SASL exchange as `MASKED` (a cancelling `*` as it is).
    case record([UInt8])
    /// Closes the connection once everything before it has been sent, for the reason given in a
    /// few words (`QUIT`, `fault: drop at pop3.user`).
    case close(String)
}
