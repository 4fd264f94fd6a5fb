import MockServerMail
@testable import MockServerMailScript
import Testing

@Suite("Mailpit's chaos triggers over a fault plan, read without a server")
struct MailpitChaosTests {
    @Test("a plan without rules reads as Mailpit's defaults; Swift's unconditional rules read as triggers, conditional ones do not")
    func reading() {
        let plan = MailFaultPlan(seed: 1)
        #expect(MailpitChaos(plan: plan).triggers == ["Sender": .init(errorCode: 451, probability: 0), "Recipient": .init(errorCode: 451, probability: 0),
                                                      "Authentication": .init(errorCode: 535, probability: 0)])
        plan.add(MailFaultRule(at: .smtpRecipient, .reply(code: 550, text: "no"), recipient: "bob@example.com"))
        plan.add(MailFaultRule(at: .smtpRecipient, .reply(code: 452, text: "full"), probability: 0.25))
        plan.add(MailFaultRule(at: .smtpMail, .drop))
        let chaos = MailpitChaos(plan: plan)
        #expect(chaos.triggers["Recipient"] == .init(errorCode: 452, probability: 25))
        #expect(chaos.triggers["Sender"] == .init(errorCode: 451, probability: 0))
    }

    @Test("a body sets all three: names in any case, left out or code 0 the defaults; applied, it replaces MAIL, RCPT and AUTH rules only")
    func applying() throws {
        let plan = MailFaultPlan([MailFaultRule(at: .smtpData, .drop), MailFaultRule(at: .smtpMail, .drop)], seed: 1)
        let chaos = try MailpitChaos(json: Array(#"{"AUTHENTICATION": {"errorcode": 0, "probability": 100}, "Sender": null}"#.utf8))
        #expect(chaos.triggers["Authentication"] == .init(errorCode: 535, probability: 100))
        chaos.apply(to: plan)
        #expect(plan.rules == [MailFaultRule(at: .smtpData, .drop), MailFaultRule(at: .smtpAuth, .reply(code: 535, text: "Chaos authentication error"))])
        #expect(try MailpitChaos(json: Array("{}".utf8)) == MailpitChaos(plan: MailFaultPlan()))
    }

    @Test("bad bodies name the culprit", arguments: [
        (#"{"Sender": {"ErrorCode": 600}}"#, "Sender.ErrorCode is 600"),
        (#"{"Sender": {"Probability": -1}}"#, "Sender.Probability is -1"),
        (#"{"Sender": {"Probability": "5"}}"#, "Sender.Probability must be a whole number, not a string"),
        (#"{"Sender": {"Chance": 5}}"#, "unknown field Sender.Chance"),
        (#"{"Sender": 5}"#, "chaos trigger Sender must be an object"),
        (#"{"Everything": {}}"#, "unknown chaos trigger Everything"),
        ("nope", "the chaos body is not JSON"),
    ])
    func refusals(body: String, culprit: String) {
        #expect {
            _ = try MailpitChaos(json: Array(body.utf8))
        } throws: { error in
            guard let failure = error as? MailpitFailure else { return false }
            return failure.status == 400 && failure.description.hasPrefix(culprit)
        }
    }
}
