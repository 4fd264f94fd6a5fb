import MockServerMail
import MockServerScript

extension MailpitAPI {
    /// `PUT /api/v1/chaos`: the body's triggers become the fault plan's rules at MAIL, RCPT and
    /// AUTH; the answer is the triggers now, as `GET /api/v1/chaos` gives them.
    func setChaos(body: [UInt8]) throws(MailpitFailure) -> ScriptVocabulary.AdminRoute.Answer {
        let chaos = try MailpitChaos(json: body)
        chaos.apply(to: faults)
        return .init(json: MailpitChaos(plan: faults).json)
    }
}
