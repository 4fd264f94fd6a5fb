/// What an ``IMAPSession`` asks of its connection, carried out in order.
package enum IMAPAction: Sendable, Hashable {
    /// Sends bytes.
    case send([UInt8])
    /// Records one command in the transcript (its tag and name, secrets masked, literals by size).
    case record([UInt8])
    /// Begins TLS once everything before has been written; input received before it and not yet
    /// consumed (commands pipelined after STARTTLS) is discarded, never answered under TLS.
    case startTLS
    /// Closes the connection once everything before has been sent, for the reason given.
    case close(String)
}
