@_spi(HotPath) import MockServerCore

/// The failures a mail server gives on demand, set from Swift, a response script or the control
/// API (Mailpit's chaos) while it serves: at each point a session reaches, the first rule for
/// that point and subject decides, drawing its probability from a seeded generator.
///
/// ```swift
/// let faults = MailFaultPlan(seed: 7)
/// faults.add(MailFaultRule(at: .smtpMail, .reply(code: 451, text: "4.3.0 Try again later"), probability: 0.5))
/// ```
package final class MailFaultPlan: MailFaultSource {
    private struct State {
        var rules: [MailFaultRule]
        var random: MailFaultRandom
    }

    private let state: Locked<State>

    /// A plan of `rules`, drawing from `seed` (a random one by default).
    package init(_ rules: [MailFaultRule] = [], seed: UInt64 = UInt64.random(in: .min ... .max)) {
        state = Locked(State(rules: rules, random: MailFaultRandom(seed: seed)))
    }

    /// The rules, in the order they are tried.
    package var rules: [MailFaultRule] { state.withLock { $0.rules } }

    /// Adds a rule after the others.
    package func add(_ rule: MailFaultRule) {
        state.withLock { $0.rules.append(rule) }
    }

    /// Adds a rule after the others unless the plan holds `limit` rules already (checked and added
    /// under one lock, so that requests at once cannot pass the limit); false when it was full.
    package func add(_ rule: MailFaultRule, upTo limit: Int) -> Bool {
        state.withLock { state in
            guard state.rules.count < limit else { return false }
            state.rules.append(rule)
            return true
        }
    }

    /// Replaces every rule for `point` with `rules` (those of other points stay).
    package func replaceRules(at point: MailFaultPoint, with rules: [MailFaultRule]) {
        state.withLock { state in
            state.rules.removeAll { $0.point == point }
            state.rules.append(contentsOf: rules)
        }
    }

    /// Removes every rule.
    package func removeAll() {
        state.withLock { $0.rules.removeAll() }
    }

    package func decide(_ point: MailFaultPoint, subject: MailFaultSubject) -> MailFaultDecision? {
        state.withLock { state in
            guard let rule = state.rules.first(where: { $0.point == point && $0.applies(to: subject) }) else { return nil }
            if rule.probability >= 1 { return rule.decision }
            if rule.probability <= 0 { return nil }
            return Double.random(in: 0..<1, using: &state.random) < rule.probability ? rule.decision : nil
        }
    }
}
