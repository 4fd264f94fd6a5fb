/// A wait on the mailbox that ran out of time, with what did arrive.
package struct MailWaitTimeout: Error, Sendable, CustomStringConvertible {
    /// How long the wait lasted.
    package let timeout: Duration
    /// What was waited for.
    package let expectation: String
    /// The transactions the store held when the wait gave up, oldest first.
    package let arrived: [MailTransaction]

    /// The expectation, then each transaction that arrived, one a line.
    package var description: String {
        let lines = arrived.isEmpty ? "  (none)" : arrived.map { "  \($0)" }.joined(separator: "\n")
        return "timed out after \(timeout) waiting for a message with \(expectation); arrived:\n\(lines)"
    }
}
