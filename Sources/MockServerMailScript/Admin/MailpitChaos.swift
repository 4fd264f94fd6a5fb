import MockServerCore
import MockServerMail

/// Mailpit's chaos (`GET` and `PUT /api/v1/chaos`) over a ``MailFaultPlan``: three triggers, each
/// an SMTP error code and a probability from 0 to 100 percent, answered at `MAIL`
/// (`Sender`), each `RCPT` (`Recipient`) and `AUTH` (`Authentication`).
///
/// A trigger with a probability above 0 is the plan's one rule at its point (a
/// ``MailFaultDecision/reply(code:text:)`` with Mailpit's text, `Chaos sender error`), drawn
/// from the plan's seeded generator; at 0 its point has no rule. Reading the plan back, the first
/// rule at a point that replies to everyone is its trigger.
struct MailpitChaos: Sendable, Equatable {
    /// One trigger: the code to answer and the chance of answering it.
    struct Trigger: Sendable, Equatable {
        /// The SMTP reply code, 400 to 599.
        var errorCode: Int
        /// The chance in percent, 0 to 100 (0: never).
        var probability: Int
    }

    /// Mailpit's name of each trigger, the fault point it is the rule of, its default code and its reply's text.
    static let points: [(name: String, point: MailFaultPoint, defaultCode: Int, text: String)] = [
        ("Sender", .smtpMail, 451, "Chaos sender error"),
        ("Recipient", .smtpRecipient, 451, "Chaos recipient error"),
        ("Authentication", .smtpAuth, 535, "Chaos authentication error"),
    ]

    /// The triggers by Mailpit's name (`Sender`, `Recipient`, `Authentication`).
    var triggers: [String: Trigger]

    /// The triggers `plan` holds now.
    init(plan: MailFaultPlan) {
        let rules = plan.rules
        var triggers: [String: Trigger] = [:]
        for entry in Self.points {
            let rule = rules.first { $0.point == entry.point && $0.sender == nil && $0.recipient == nil && $0.user == nil }
            if let rule, case .reply(let code, _) = rule.decision {
                triggers[entry.name] = Trigger(errorCode: code, probability: Int((rule.probability * 100).rounded()))
            } else {
                triggers[entry.name] = Trigger(errorCode: entry.defaultCode, probability: 0)
            }
        }
        self.triggers = triggers
    }

    /// The triggers a `PUT` body sets, as Mailpit reads one: names in any case, a trigger left
    /// out or an `ErrorCode` of 0 taking the defaults (451, 451, 535; probability 0).
    ///
    /// - Throws: a ``MailpitFailure`` (400) naming what is wrong: the JSON, an unknown name, a
    ///   code outside 400–599, a probability outside 0–100 or not whole.
    init(json body: [UInt8]) throws(MailpitFailure) {
        let root: JSONNode
        do {
            root = try JSONReader.parse(body, options: .strict)
        } catch {
            throw MailpitFailure(400, "the chaos body is not JSON: \(error)")
        }
        guard case .object(let members) = root.kind else { throw MailpitFailure(400, "the chaos body must be a JSON object, not \(root.typeName)") }
        var triggers: [String: Trigger] = [:]
        for entry in Self.points { triggers[entry.name] = Trigger(errorCode: entry.defaultCode, probability: 0) }
        for member in members {
            guard let entry = Self.points.first(where: { $0.name.caseInsensitiveCompare(member.key) == .orderedSame }) else {
                throw MailpitFailure(400, "unknown chaos trigger \(member.key) (triggers: Sender, Recipient, Authentication)")
            }
            triggers[entry.name] = try Self.trigger(member.value, named: entry.name, defaultCode: entry.defaultCode)
        }
        self.triggers = triggers
    }

    /// One trigger of a `PUT` body.
    private static func trigger(_ node: JSONNode, named name: String, defaultCode: Int) throws(MailpitFailure) -> Trigger {
        if case .null = node.kind { return Trigger(errorCode: defaultCode, probability: 0) }
        guard case .object(let members) = node.kind else { throw MailpitFailure(400, "chaos trigger \(name) must be an object like {\"ErrorCode\": 451, \"Probability\": 50}, not \(node.typeName)") }
        var trigger = Trigger(errorCode: defaultCode, probability: 0)
        for member in members {
            let key = member.key.lowercased()
            guard key == "errorcode" || key == "probability" else {
                throw MailpitFailure(400, "unknown field \(name).\(member.key) (fields: ErrorCode, Probability)")
            }
            guard case .number(let value) = member.value.kind, value == value.rounded(), abs(value) < 1e9 else {
                throw MailpitFailure(400, "\(name).\(member.key) must be a whole number, not \(member.value.numberText ?? member.value.typeName)")
            }
            if key == "errorcode" { trigger.errorCode = value == 0 ? defaultCode : Int(value) } else { trigger.probability = Int(value) }
        }
        guard (400...599).contains(trigger.errorCode) else {
            throw MailpitFailure(400, "\(name).ErrorCode is \(trigger.errorCode): an SMTP error code is from 400 to 599")
        }
        guard (0...100).contains(trigger.probability) else {
            throw MailpitFailure(400, "\(name).Probability is \(trigger.probability): a probability is a percentage, from 0 to 100")
        }
        return trigger
    }

    /// Makes the triggers `plan`'s rules at `MAIL`, `RCPT` and `AUTH`, replacing every rule
    /// there (as Mailpit's `PUT` replaces its whole configuration); other points keep theirs.
    func apply(to plan: MailFaultPlan) {
        for entry in Self.points {
            let trigger = triggers[entry.name] ?? Trigger(errorCode: entry.defaultCode, probability: 0)
            let rules = trigger.probability > 0
                ? [MailFaultRule(at: entry.point, .reply(code: trigger.errorCode, text: entry.text), probability: Double(trigger.probability) / 100)]
                : []
            plan.replaceRules(at: entry.point, with: rules)
        }
    }

    /// The triggers as Mailpit writes them: `{"Sender": {"ErrorCode": 451, "Probability": 0}, …}`.
    var json: JSONNode {
        .object(triggers.mapValues { .object(["ErrorCode": .number($0.errorCode), "Probability": .number($0.probability)]) })
    }
}
