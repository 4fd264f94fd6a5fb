/// What a wait waits for: a condition on a transaction, with words for the timeout's message.
///
/// Combine with ``all(_:)``: `.all([.recipient("dana@example.net"), .subject(contains: "Reset")])`.
package struct MailMatch: Sendable, CustomStringConvertible {
    /// The condition in words (`recipient dana@example.net`).
    package let description: String
    /// The condition; called under the store's lock, so it stays short.
    package let predicate: @Sendable (MailTransaction) -> Bool

    package init(_ description: String, where predicate: @escaping @Sendable (MailTransaction) -> Bool) {
        self.description = description
        self.predicate = predicate
    }

    /// Any transaction.
    package static let any = MailMatch("any message") { _ in true }

    /// A transaction whose envelope names `address` among its recipients (its domain in any case).
    package static func recipient(_ address: String) -> MailMatch {
        let wanted = MailboxAddress(address)
        return MailMatch("recipient \(address)") { $0.envelope.recipients.contains { MailboxAddress($0) == wanted } }
    }

    /// A transaction sent by `address`: the envelope's `MAIL FROM` or the message's `From`.
    package static func sender(_ address: String) -> MailMatch {
        let wanted = MailboxAddress(address)
        return MailMatch("sender \(address)") { transaction in
            MailboxAddress(transaction.envelope.sender) == wanted || transaction.message.from.contains { MailboxAddress($0.address) == wanted }
        }
    }

    /// A message whose decoded subject contains `text` (case-sensitive).
    package static func subject(contains text: String) -> MailMatch {
        MailMatch("subject containing \"\(text)\"") { $0.message.subject.contains(text) }
    }

    /// A message whose text or HTML body, decoded, contains `text` (case-sensitive).
    package static func body(contains text: String) -> MailMatch {
        MailMatch("body containing \"\(text)\"") { transaction in
            let message = transaction.message
            return message.text?.contains(text) == true || message.html?.contains(text) == true
        }
    }

    /// Every one of `matches`.
    package static func all(_ matches: [MailMatch]) -> MailMatch {
        MailMatch(matches.map(\.description).joined(separator: " and ")) { transaction in matches.allSatisfy { $0.predicate(transaction) } }
    }
}
