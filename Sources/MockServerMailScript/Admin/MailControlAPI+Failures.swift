import MockServerCore
import MockServerMail
import MockServerScript

/// The failures routes: the fault plan's rules (``MailFaultRule/controlJSON``), at any point of
/// SMTP, POP3 and IMAP, listed, added and removed.
extension MailControlAPI {
    /// `GET /api/v1/mockserver/failures`: `{"failures": [rule…], "points": [every point's name]}`,
    /// the rules in the order they are tried (Mailpit's chaos triggers among them).
    var failureList: JSONNode {
        .object([
            "failures": .array(faults.rules.map(\.controlJSON)),
            "points": .array(MailFaultPoint.allCases.map { .string($0.rawValue) }),
        ])
    }

    /// `POST /api/v1/mockserver/failures` with one rule: adds it after the others (the first rule
    /// for a point and subject decides); answers the list.
    func addFailure(body: [UInt8]) throws(MailControlError) -> ScriptVocabulary.AdminRoute.Answer {
        let members = try Self.object(body, fields: MailFaultRule.controlFields,
                                      example: #"{"point": "imap.fetch", "action": "reply", "code": 421, "text": "Going down"}"#)
        let rule = try MailFaultRule(controlJSON: members)
        guard faults.add(rule, upTo: Self.largestRuleCount) else {
            throw MailControlError(400, "the plan holds \(Self.largestRuleCount) rules, as many as it takes: DELETE \(Self.prefix)failures first")
        }
        return .init(json: failureList)
    }

    /// `DELETE /api/v1/mockserver/failures`: removes every rule, or with `?point=P` those of one
    /// point; answers the list.
    func removeFailures(_ query: [String: String]) throws(MailControlError) -> ScriptVocabulary.AdminRoute.Answer {
        if let name = query["point"] {
            guard let point = MailFaultPoint(rawValue: name) else {
                throw MailControlError(400, "unknown point \(name) (points: \(MailFaultRule.pointNames))")
            }
            faults.replaceRules(at: point, with: [])
        } else {
            faults.removeAll()
        }
        return .init(json: failureList)
    }
}
