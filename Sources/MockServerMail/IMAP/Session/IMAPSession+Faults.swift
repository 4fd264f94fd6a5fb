/// Where an IMAP session asks its ``MailFaultSource``, and how a decision is answered: a reply's
/// code chooses the form (421: `* BYE` and close; 4xx: `NO [UNAVAILABLE]`; 5xx: `NO`, with
/// `[AUTHENTICATIONFAILED]` at a login), text that starts with `[` keeps its own response code
/// (`[ALERT] …`, `[OVERQUOTA] …`), a drop closes with no answer.
extension IMAPSession {
    /// The fault at ``MailFaultPoint/imapCommand`` (every command, the user once logged in).
    mutating func commandFault(_ command: IMAPCommand) -> [MailAction]? {
        guard let faults, let decision = faults.decide(.imapCommand, subject: MailFaultSubject(user: address?.text)) else { return nil }
        return answer(decision, tag: command.tag, at: .imapCommand)
    }

    /// The fault at ``MailFaultPoint/imapLogin`` with the user named.
    mutating func loginFault(_ tag: String, user: String) -> [MailAction]? {
        guard let faults, let decision = faults.decide(.imapLogin, subject: MailFaultSubject(user: user)) else { return nil }
        return answer(decision, tag: tag, at: .imapLogin)
    }

    /// The fault at `point` for the logged-in user, if any (a drop-midway is the caller's to carry out).
    func fault(at point: MailFaultPoint) -> MailFaultDecision? {
        faults?.decide(point, subject: MailFaultSubject(user: address?.text))
    }

    /// The answer to a fault's decision in place of a command's.
    mutating func answer(_ decision: MailFaultDecision, tag: String, at point: MailFaultPoint) -> [MailAction] {
        switch decision {
        case .reply(let code, let text):
            if code == 421 {
                state = .loggedOut
                return [.send(Array("* BYE \(text)\r\n".utf8)), .close("\(point.rawValue) fault: BYE")]
            }
            let shown: String
            if text.hasPrefix("[") {
                shown = text
            } else if code / 100 == 4 {
                shown = "[UNAVAILABLE] \(text)"
            } else if point == .imapLogin {
                shown = "[AUTHENTICATIONFAILED] \(text)"
            } else {
                shown = text
            }
            return [.send(Array("\(tag) NO \(shown)\r\n".utf8))]
        case .drop, .dropMidway:
            state = .loggedOut
            return [.close("\(point.rawValue) fault: dropped")]
        }
    }
}
