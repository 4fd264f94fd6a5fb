import Foundation

/// One failure on demand: at a point of the dialogue, for every call or with a probability, and
/// only for a given sender, recipient or user when those are set (compared without regard to case).
///
/// ```swift
/// MailFaultRule(at: .smtpRecipient, .reply(code: 450, text: "4.2.1 Mailbox busy"), recipient: "bob@example.com")
/// ```
package struct MailFaultRule: Sendable, Hashable {
    /// Where the rule applies.
    package var point: MailFaultPoint
    /// What the session does there instead of its own answer.
    package var decision: MailFaultDecision
    /// The chance, from 0 to 1, that a call at the point fails (1: every call).
    package var probability: Double
    /// Only for this `MAIL FROM` address, when set.
    package var sender: String?
    /// Only for this `RCPT TO` address, when set.
    package var recipient: String?
    /// Only for this login, when set.
    package var user: String?

    package init(at point: MailFaultPoint, _ decision: MailFaultDecision, probability: Double = 1,
                 sender: String? = nil, recipient: String? = nil, user: String? = nil) {
        self.point = point
        if case .reply(let code, let text) = decision, !(200...599).contains(code) {
            // A reply code is three digits (RFC 5321 §4.2); any other is kept in its range.
            self.decision = .reply(code: min(max(code, 200), 599), text: text)
        } else {
            self.decision = decision
        }
        // From 0 to 1; NaN is never.
        self.probability = probability.isNaN ? 0 : min(max(probability, 0), 1)
        self.sender = sender
        self.recipient = recipient
        self.user = user
    }

    /// Whether the rule is about `subject` (each part it sets equals the subject's).
    package func applies(to subject: MailFaultSubject) -> Bool {
        Self.same(sender, subject.sender) && Self.same(recipient, subject.recipient) && Self.same(user, subject.user)
    }

    private static func same(_ wanted: String?, _ given: String?) -> Bool {
        guard let wanted else { return true }
        guard let given else { return false }
        return wanted.caseInsensitiveCompare(given) == .orderedSame
    }
}
