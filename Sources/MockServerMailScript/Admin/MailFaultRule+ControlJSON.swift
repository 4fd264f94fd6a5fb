import MockServerCore
import MockServerMail

/// A failure rule as our failures route (`/api/v1/mockserver/failures`) reads and writes it:
///
/// ```json
/// {"point": "imap.fetch", "action": "reply", "code": 421, "text": "[ALERT] Going down", "probability": 1, "user": "ann"}
/// ```
///
/// `point` is a ``MailFaultPoint`` raw value; `action` is `reply` (the default; `code` 200 to 599
/// and `text` needed), `drop` or `dropMidway`; `probability` from 0 to 1 (1 by default); `sender`,
/// `recipient` and `user` narrow the rule when given.
extension MailFaultRule {
    /// The names a rule's JSON may have.
    static let controlFields = ["point", "action", "code", "text", "probability", "sender", "recipient", "user"]
    /// The most bytes of a reply's text, or of a sender, recipient or user (a reply line stays
    /// under SMTP's 512, RFC 5321 §4.5.3.1.5).
    static let largestControlText = 400
    /// Every point's name, as a refusal of an unknown one lists them.
    static let pointNames = MailFaultPoint.allCases.map(\.rawValue).joined(separator: ", ")

    /// The rule a JSON object describes.
    ///
    /// - Throws: a ``MailControlError`` (400) naming what is wrong: an unknown field or point (the
    ///   known ones listed), an action other than the three, a code outside 200–599, a text with a
    ///   line break or control character, a probability outside 0–1.
    init(controlJSON members: [String: JSONNode]) throws(MailControlError) {
        guard let pointNode = members["point"] else {
            throw MailControlError(400, "no point: give point, one of \(Self.pointNames)")
        }
        guard let pointName = pointNode.stringValue, let point = MailFaultPoint(rawValue: pointName) else {
            throw MailControlError(400, "unknown point \(pointNode.stringValue ?? pointNode.typeName) (points: \(Self.pointNames))")
        }
        let action = try members["action"].map { node throws(MailControlError) in
            guard let text = node.stringValue else { throw MailControlError(400, "action must be reply, drop or dropMidway, not \(node.typeName)") }
            return text
        } ?? "reply"
        let decision: MailFaultDecision
        switch action {
        case "reply":
            guard let codeNode = members["code"] else { throw MailControlError(400, "a reply needs code, from 200 to 599 (and text)") }
            guard case .number(let value) = codeNode.kind, value == value.rounded(), (200...599).contains(value) else {
                throw MailControlError(400, "code must be a whole number from 200 to 599, not \(codeNode.numberText ?? codeNode.typeName)")
            }
            guard let text = try Self.controlText(members["text"], "text") else { throw MailControlError(400, "a reply needs text, the words after its code") }
            decision = .reply(code: Int(value), text: text)
        case "drop", "dropMidway":
            for name in ["code", "text"] where members[name] != nil {
                throw MailControlError(400, "\(name) goes with action reply only, not \(action)")
            }
            decision = action == "drop" ? .drop : .dropMidway
        default:
            throw MailControlError(400, "unknown action \(action) (actions: reply, drop, dropMidway)")
        }
        var probability = 1.0
        if let node = members["probability"] {
            guard case .number(let value) = node.kind, (0...1).contains(value) else {
                throw MailControlError(400, "probability must be a number from 0 to 1, not \(node.numberText ?? node.typeName)")
            }
            probability = value
        }
        self.init(at: point, decision, probability: probability, sender: try Self.controlText(members["sender"], "sender"),
                  recipient: try Self.controlText(members["recipient"], "recipient"), user: try Self.controlText(members["user"], "user"))
    }

    /// A string field of one line and at most ``largestControlText`` bytes; nil when absent or null.
    private static func controlText(_ node: JSONNode?, _ name: String) throws(MailControlError) -> String? {
        guard let node else { return nil }
        if case .null = node.kind { return nil }
        guard let text = node.stringValue else { throw MailControlError(400, "\(name) must be a string, not \(node.typeName)") }
        guard text.utf8.count <= largestControlText else { throw MailControlError(400, "\(name) is \(text.utf8.count) bytes; it may have at most \(largestControlText)") }
        if let control = text.unicodeScalars.first(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw MailControlError(400, "\(name) must be one line: it holds the control character U+\(String(format: "%04X", control.value))")
        }
        return text
    }

    /// The rule as the failures route writes it (the fields it reads; `sender`, `recipient` and
    /// `user` only when set, `code` and `text` only for a reply).
    var controlJSON: JSONNode {
        var fields: [String: JSONNode] = ["point": .string(point.rawValue), "probability": .number(probability)]
        switch decision {
        case .reply(let code, let text):
            fields["action"] = .string("reply")
            fields["code"] = .number(code)
            fields["text"] = .string(text)
        case .drop: fields["action"] = .string("drop")
        case .dropMidway: fields["action"] = .string("dropMidway")
        }
        if let sender { fields["sender"] = .string(sender) }
        if let recipient { fields["recipient"] = .string(recipient) }
        if let user { fields["user"] = .string(user) }
        return .object(fields)
    }
}
