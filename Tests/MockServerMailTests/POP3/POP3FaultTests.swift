import MockServerMail
import Testing

/// Mail errors on demand at each POP3 fault point: an `-ERR` with Dovecot's response codes,
/// a drop, and a drop half-way through RETR.
@Suite("POP3 faults")
struct POP3FaultTests {
    @Test("greeting: a reply is an -ERR and a close; a drop closes with nothing sent")
    func greeting() {
        var refused = POP3TestDialogue(store: popStore(), faults: MailFaultPlan([MailFaultRule(at: .pop3Greeting, .reply(code: 421, text: "Too busy"))]))
        #expect(refused.transcript == "-ERR [SYS/TEMP] Too busy\r\n")
        #expect(refused.closed == "fault: -ERR at pop3.greeting")
        #expect(refused.send("CAPA\r\n") == "")
        let dropped = POP3TestDialogue(store: popStore(), faults: MailFaultPlan([MailFaultRule(at: .pop3Greeting, .drop)]))
        #expect(dropped.transcript == "")
        #expect(dropped.closed == "fault: drop at pop3.greeting")
    }

    @Test("USER: a reply refuses the name (PASS then has none); a drop closes")
    func user() {
        var refused = POP3TestDialogue(store: popStore(), faults: MailFaultPlan([MailFaultRule(at: .pop3User, .reply(code: 550, text: "No such mailbox"))]))
        #expect(refused.send("USER dana@example.net\r\nPASS x\r\n") == "-ERR [SYS/PERM] No such mailbox\r\n-ERR No username given.\r\n")
        var dropped = POP3TestDialogue(store: popStore(), faults: MailFaultPlan([MailFaultRule(at: .pop3User, .drop)]))
        #expect(dropped.send("USER dana@example.net\r\nPASS x\r\n") == "")
        #expect(dropped.closed == "fault: drop at pop3.user")
    }

    @Test("PASS, APOP and AUTH: the fault is asked with the user, before the login is checked; others log in")
    func pass() {
        let faults = MailFaultPlan([MailFaultRule(at: .pop3Pass, .reply(code: 535, text: "Try later"), user: "dana@example.net")])
        let store = popStore()
        var dana = POP3TestDialogue(store: store, faults: faults)
        #expect(dana.send("USER dana@example.net\r\nPASS x\r\n") == "+OK\r\n-ERR [AUTH] Try later\r\n")
        #expect(dana.send("APOP dana@example.net 0123456789abcdef0123456789abcdef\r\n") == "-ERR [AUTH] Try later\r\n")
        #expect(dana.send("AUTH PLAIN \(POP3LoginTests.plain("dana@example.net", "x"))\r\n") == "-ERR [AUTH] Try later\r\n")
        #expect(dana.send("STAT\r\n") == "-ERR Unknown command.\r\n")
        var lee = POP3TestDialogue(store: store, faults: faults)
        #expect(lee.send("USER lee@example.org\r\nPASS x\r\n") == "+OK\r\n+OK Logged in.\r\n")
    }

    @Test("a reply whose text starts with a response code is sent as given; codes outside 4xx and 5xx add none")
    func responseCodes() {
        var inUse = POP3TestDialogue(store: popStore(), faults: MailFaultPlan([MailFaultRule(at: .pop3Pass, .reply(code: 0, text: "[IN-USE] Mailbox locked"))]))
        #expect(inUse.send("USER dana@example.net\r\nPASS x\r\n") == "+OK\r\n-ERR [IN-USE] Mailbox locked\r\n")
        var plain = POP3TestDialogue(store: popStore(), faults: MailFaultPlan([MailFaultRule(at: .pop3Pass, .reply(code: 0, text: "No"))]))
        #expect(plain.send("USER dana@example.net\r\nPASS x\r\n") == "+OK\r\n-ERR No\r\n")
    }

    @Test("a seeded probability at RETR: the same seed fails the same retrievals, and some of each")
    func probability() {
        func outcomes(seed: UInt64) -> [Bool] {
            let plan = MailFaultPlan([MailFaultRule(at: .pop3Retrieve, .reply(code: 451, text: "Busy"), probability: 0.5)], seed: seed)
            var dialogue = POP3TestDialogue(store: popStore(), faults: plan)
            dialogue.send("USER dana@example.net\r\nPASS x\r\n")
            return (0..<40).map { _ in dialogue.send("RETR 1\r\n").hasPrefix("+OK") }
        }
        let first = outcomes(seed: 11)
        #expect(first == outcomes(seed: 11))
        #expect(first.contains(true) && first.contains(false))
    }

    @Test("PASS drop closes without logging in")
    func passDrop() {
        var dialogue = POP3TestDialogue(store: popStore(), faults: MailFaultPlan([MailFaultRule(at: .pop3Pass, .dropMidway)]))
        #expect(dialogue.send("USER dana@example.net\r\nPASS x\r\nSTAT\r\n") == "+OK\r\n")
        #expect(dialogue.closed == "fault: drop at pop3.pass")
    }

    @Test("RETR and TOP: a reply refuses the message and the session goes on")
    func retrieveReply() {
        var dialogue = POP3TestDialogue(store: popStore(), faults: MailFaultPlan([MailFaultRule(at: .pop3Retrieve, .reply(code: 451, text: "Read failed"))]))
        dialogue.send("USER dana@example.net\r\nPASS x\r\n")
        #expect(dialogue.send("RETR 1\r\n") == "-ERR [SYS/TEMP] Read failed\r\n")
        #expect(dialogue.send("TOP 1 0\r\n") == "-ERR [SYS/TEMP] Read failed\r\n")
        #expect(dialogue.send("LIST 1\r\n") == "+OK 1 77\r\n")
    }

    @Test("RETR drop closes with nothing sent; midway sends the status line and part of the message, never its end")
    func retrieveDrop() {
        let store = popStore()
        var dropped = POP3TestDialogue(store: store, faults: MailFaultPlan([MailFaultRule(at: .pop3Retrieve, .drop)]))
        dropped.send("USER dana@example.net\r\nPASS x\r\nDELE 2\r\n")
        #expect(dropped.send("RETR 1\r\n") == "")
        #expect(dropped.closed == "fault: drop at pop3.retr")
        var midway = POP3TestDialogue(store: store, faults: MailFaultPlan([MailFaultRule(at: .pop3Retrieve, .dropMidway)]))
        midway.send("USER dana@example.net\r\nPASS x\r\nDELE 2\r\n")
        let partial = midway.send("RETR 1\r\nNOOP\r\n")
        let whole = "+OK 77 octets\r\nFrom: app@shop.example\r\nTo: dana@example.net\r\nSubject: Message 1\r\n\r\nBody 1.\r\n.\r\n"
        #expect(partial.hasPrefix("+OK 77 octets\r\nFrom: "))
        #expect(whole.hasPrefix(partial) && partial.count < whole.count - 3)
        #expect(midway.closed == "fault: drop midway at pop3.retr")
        #expect(store.messages(of: "dana@example.net").count == 2, "a dropped session deletes nothing")
    }
}
