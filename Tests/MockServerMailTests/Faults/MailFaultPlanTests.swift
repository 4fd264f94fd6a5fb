import MockServerMail
import Testing

@Suite("Mail faults on demand: rules, subjects and seeded probabilities")
struct MailFaultPlanTests {
    @Test("the first rule for the point and subject decides; other points and subjects are answered as the server")
    func firstMatchingRule() {
        let plan = MailFaultPlan([
            MailFaultRule(at: .smtpRecipient, .reply(code: 550, text: "5.1.1 No such user"), recipient: "Bob@Example.com"),
            MailFaultRule(at: .smtpRecipient, .reply(code: 450, text: "4.2.1 Busy")),
            MailFaultRule(at: .pop3Retrieve, .dropMidway, user: "carol"),
        ])
        #expect(plan.decide(.smtpRecipient, subject: MailFaultSubject(recipient: "bob@example.com")) == .reply(code: 550, text: "5.1.1 No such user"))
        #expect(plan.decide(.smtpRecipient, subject: MailFaultSubject(recipient: "alice@example.com")) == .reply(code: 450, text: "4.2.1 Busy"))
        #expect(plan.decide(.smtpMail, subject: MailFaultSubject(sender: "bob@example.com")) == nil)
        #expect(plan.decide(.pop3Retrieve, subject: MailFaultSubject(user: "carol")) == .dropMidway)
        #expect(plan.decide(.pop3Retrieve, subject: MailFaultSubject(user: "dave")) == nil)
        // A rule about a user does not apply where the dialogue has named none yet.
        #expect(plan.decide(.pop3Retrieve, subject: MailFaultSubject()) == nil)
    }

    @Test("a probability is drawn from the seed: the same seed fails the same calls, and about that share of them")
    func seededProbability() {
        func draws(seed: UInt64) -> [Bool] {
            let plan = MailFaultPlan([MailFaultRule(at: .smtpMail, .drop, probability: 0.25)], seed: seed)
            return (0..<2000).map { _ in plan.decide(.smtpMail, subject: MailFaultSubject()) != nil }
        }
        let first = draws(seed: 42)
        #expect(first == draws(seed: 42))
        #expect(first != draws(seed: 43))
        let failed = first.filter { $0 }.count
        #expect((400...600).contains(failed), "\(failed) of 2000")
        #expect(MailFaultPlan([MailFaultRule(at: .smtpMail, .drop, probability: 0)]).decide(.smtpMail, subject: MailFaultSubject()) == nil)
    }

    @Test("rules change while serving: added after the others, replaced for one point, removed")
    func changes() {
        let plan = MailFaultPlan()
        #expect(plan.decide(.smtpAuth, subject: MailFaultSubject()) == nil)
        plan.add(MailFaultRule(at: .smtpAuth, .reply(code: 454, text: "4.7.0 Temporary authentication failure")))
        plan.add(MailFaultRule(at: .smtpMail, .drop))
        plan.replaceRules(at: .smtpAuth, with: [MailFaultRule(at: .smtpAuth, .reply(code: 535, text: "5.7.8 Authentication credentials invalid"))])
        #expect(plan.decide(.smtpAuth, subject: MailFaultSubject()) == .reply(code: 535, text: "5.7.8 Authentication credentials invalid"))
        #expect(plan.rules.map(\.point) == [.smtpMail, .smtpAuth])
        plan.removeAll()
        #expect(plan.decide(.smtpMail, subject: MailFaultSubject()) == nil)
    }
}
