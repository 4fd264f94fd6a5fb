import Foundation
@testable import MockServerMail
import Testing

/// Failures on demand at each SMTP fault point, and what the session does after each.
@Suite("SMTP session: faults")
struct SMTPFaultTests {
    static func transaction(_ dialogue: inout SMTPTestDialogue) -> String {
        dialogue.send("EHLO c\r\nMAIL FROM:<a@b.test>\r\nRCPT TO:<c@d.test>\r\nDATA\r\nx\r\n.\r\n")
    }

    @Test("greeting 554: every command but QUIT gets 503, QUIT closes")
    func greetingRefused() {
        var dialogue = SMTPTestDialogue(faults: MailFaultPlan([MailFaultRule(at: .smtpGreeting, .reply(code: 554, text: "5.3.2 No service here"))]))
        #expect(dialogue.output == "554 5.3.2 No service here\r\n")
        #expect(dialogue.send("EHLO c\r\nMAIL FROM:<a@b.test>\r\n") == "503 5.5.1 Error: service refused; send QUIT\r\n503 5.5.1 Error: service refused; send QUIT\r\n")
        // An over-long line does not escape the refusal.
        dialogue.send(String(repeating: "x", count: 600) + "\r\n")
        #expect(dialogue.send("EHLO c\r\n") == "503 5.5.1 Error: service refused; send QUIT\r\n")
        #expect(dialogue.send("QUIT\r\n") == "221 2.0.0 Bye\r\n" && dialogue.closed == "QUIT")
    }

    @Test("greeting 421 closes; a drop closes without a word")
    func greetingClose() {
        let closing = SMTPTestDialogue(faults: MailFaultPlan([MailFaultRule(at: .smtpGreeting, .reply(code: 421, text: "4.3.2 Try later"))]))
        #expect(closing.output == "421 4.3.2 Try later\r\n" && closing.closed != nil)
        let dropped = SMTPTestDialogue(faults: MailFaultPlan([MailFaultRule(at: .smtpGreeting, .drop)]))
        #expect(dropped.output.isEmpty && dropped.closed != nil)
    }

    @Test("EHLO and AUTH refused with the fault's code; the session goes on")
    func helloAndAuth() {
        var hello = SMTPTestDialogue(faults: MailFaultPlan([MailFaultRule(at: .smtpHello, .reply(code: 550, text: "5.7.1 Go away"))]))
        #expect(hello.send("EHLO c\r\n") == "550 5.7.1 Go away\r\n")
        #expect(hello.send("MAIL FROM:<a@b.test>\r\n").hasPrefix("503"))
        var auth = SMTPTestDialogue(faults: MailFaultPlan([MailFaultRule(at: .smtpAuth, .reply(code: 454, text: "4.7.0 Temporary authentication failure"))]))
        auth.send("EHLO c\r\n")
        #expect(auth.send("AUTH PLAIN \(Data("\0u\0p".utf8).base64EncodedString())\r\n") == "454 4.7.0 Temporary authentication failure\r\n")
        #expect(auth.session.authenticatedUser == nil && auth.session.expectsCommand)
        // A rule for one user: the initial response's user is asked about.
        let rule = MailFaultPlan([MailFaultRule(at: .smtpAuth, .reply(code: 535, text: "5.7.8 Not you"), user: "eve")])
        var user = SMTPTestDialogue(faults: rule)
        user.send("EHLO c\r\n")
        #expect(user.send("AUTH PLAIN \(Data("\0eve\0p".utf8).base64EncodedString())\r\n") == "535 5.7.8 Not you\r\n")
        #expect(user.send("AUTH PLAIN \(Data("\0bob\0p".utf8).base64EncodedString())\r\n") == "235 2.7.0 Authentication successful\r\n")
    }

    @Test("MAIL refused: no transaction starts; for a given sender only")
    func mail() {
        let faults = MailFaultPlan([MailFaultRule(at: .smtpMail, .reply(code: 451, text: "4.7.1 Greylisted"), sender: "spam@b.test")])
        var dialogue = SMTPTestDialogue(faults: faults)
        dialogue.send("EHLO c\r\n")
        #expect(dialogue.send("MAIL FROM:<spam@b.test>\r\nRCPT TO:<c@d.test>\r\n") == "451 4.7.1 Greylisted\r\n503 5.5.1 Error: need MAIL command\r\n")
        #expect(dialogue.send("MAIL FROM:<ok@b.test>\r\n") == "250 2.1.0 Ok\r\n")
    }

    @Test("RCPT refused for one recipient only; a 2xx fault line stands in for the session's own")
    func recipient() {
        let faults = MailFaultPlan([MailFaultRule(at: .smtpRecipient, .reply(code: 550, text: "5.1.1 No such user"), recipient: "gone@d.test"),
                                    MailFaultRule(at: .smtpRecipient, .reply(code: 250, text: "2.1.5 Fine,\r\nreally"), recipient: "odd@d.test")])
        var dialogue = SMTPTestDialogue(faults: faults)
        dialogue.send("EHLO c\r\nMAIL FROM:<a@b.test>\r\n")
        let text = dialogue.send("RCPT TO:<gone@d.test>\r\nRCPT TO:<odd@d.test>\r\nRCPT TO:<c@d.test>\r\n")
        #expect(text == "550 5.1.1 No such user\r\n250 2.1.5 Fine, really\r\n250 2.1.5 Ok\r\n")
        dialogue.send("DATA\r\nx\r\n.\r\n")
        #expect(dialogue.delivered.first?.envelope.recipients == ["odd@d.test", "c@d.test"])
    }

    @Test("with MailFaultPlan: a user's rule after AUTH, a recipient's rule, and half the MAILs refused with a seed, the same each run")
    func plan() {
        let rules = [MailFaultRule(at: .smtpMail, .reply(code: 554, text: "5.7.1 Not you"), user: "eve@example.net"),
                     MailFaultRule(at: .smtpRecipient, .reply(code: 450, text: "4.2.1 Mailbox busy"), recipient: "BUSY@d.test")]
        var dialogue = SMTPTestDialogue(faults: MailFaultPlan(rules, seed: 1))
        dialogue.send("EHLO c\r\nAUTH PLAIN \(Data("\0eve@example.net\0p".utf8).base64EncodedString())\r\n")
        #expect(dialogue.send("MAIL FROM:<a@b.test>\r\n") == "554 5.7.1 Not you\r\n")
        var other = SMTPTestDialogue(faults: MailFaultPlan(rules, seed: 1))
        other.send("EHLO c\r\nMAIL FROM:<a@b.test>\r\n")
        #expect(other.send("RCPT TO:<busy@d.test>\r\nRCPT TO:<c@d.test>\r\n") == "450 4.2.1 Mailbox busy\r\n250 2.1.5 Ok\r\n")
        func codes(seed: UInt64) -> [Int] {
            var dialogue = SMTPTestDialogue(faults: MailFaultPlan([MailFaultRule(at: .smtpMail, .reply(code: 451, text: "4.3.0 Later"), probability: 0.5)], seed: seed))
            dialogue.send("EHLO c\r\n")
            return (0..<40).flatMap { _ in SMTPTestDialogue.codes(dialogue.send("MAIL FROM:<a@b.test>\r\nRSET\r\n")).prefix(1) }
        }
        let first = codes(seed: 42)
        #expect(first == codes(seed: 42))
        #expect(first.contains(451) && first.contains(250))
    }

    @Test("DATA refused before 354; end of data refused: nothing stored, the transaction over")
    func dataAndEnd() {
        var data = SMTPTestDialogue(faults: MailFaultPlan([MailFaultRule(at: .smtpData, .reply(code: 452, text: "4.3.1 Insufficient system storage"))]))
        let text = Self.transaction(&data)
        #expect(text.contains("452 4.3.1 Insufficient system storage\r\n") && data.delivered.isEmpty)
        var end = SMTPTestDialogue(faults: MailFaultPlan([MailFaultRule(at: .smtpEndOfData, .reply(code: 554, text: "5.6.0 Content rejected"))]))
        #expect(Self.transaction(&end).hasSuffix("354 End data with <CR><LF>.<CR><LF>\r\n554 5.6.0 Content rejected\r\n"))
        #expect(end.delivered.isEmpty && end.session.transaction == nil)
        #expect(end.send("RCPT TO:<c@d.test>\r\n").hasPrefix("503"))
    }

    @Test("BDAT refused after its chunk has arrived, the transaction over")
    func bdat() {
        var dialogue = SMTPTestDialogue(faults: MailFaultPlan([MailFaultRule(at: .smtpChunk, .reply(code: 451, text: "4.3.0 Chunk lost"))]))
        dialogue.send("EHLO c\r\nMAIL FROM:<a@b.test>\r\nRCPT TO:<c@d.test>\r\n")
        #expect(dialogue.send("BDAT 4 LAST\r\nab") == "")
        #expect(dialogue.send("cd") == "451 4.3.0 Chunk lost\r\n")
        #expect(dialogue.delivered.isEmpty && dialogue.session.transaction == nil)
    }

    @Test("drop at a verb closes without a word", arguments: [MailFaultPoint.smtpHello, .smtpMail, .smtpRecipient, .smtpData, .smtpEndOfData, .smtpAuth])
    func drop(point: MailFaultPoint) {
        var dialogue = SMTPTestDialogue(faults: MailFaultPlan([MailFaultRule(at: point, .drop)]))
        let before = dialogue.output
        dialogue.send("EHLO c\r\nAUTH PLAIN \(Data("\0u\0p".utf8).base64EncodedString())\r\nMAIL FROM:<a@b.test>\r\nRCPT TO:<c@d.test>\r\nDATA\r\nx\r\n.\r\nNOOP\r\n")
        #expect(dialogue.closed == "fault at \(point.rawValue): dropped")
        #expect(dialogue.delivered.isEmpty && !dialogue.output.hasSuffix("250 2.0.0 Ok\r\n") && dialogue.output.hasPrefix(before))
    }

    @Test("drop midway where no data comes is a drop", arguments: [MailFaultPoint.smtpGreeting, .smtpHello, .smtpAuth, .smtpMail, .smtpRecipient, .smtpEndOfData])
    func dropMidwayElsewhere(point: MailFaultPoint) {
        var dialogue = SMTPTestDialogue(faults: MailFaultPlan([MailFaultRule(at: point, .dropMidway)]))
        dialogue.send("EHLO c\r\nAUTH PLAIN \(Data("\0u\0p".utf8).base64EncodedString())\r\nMAIL FROM:<a@b.test>\r\nRCPT TO:<c@d.test>\r\nDATA\r\nx\r\n.\r\n")
        #expect(dialogue.closed == "fault at \(point.rawValue): dropped" && dialogue.delivered.isEmpty)
    }

    @Test("drop midway through DATA or BDAT: part of the data consumed, then closed, nothing stored")
    func dropMidway() {
        var data = SMTPTestDialogue(faults: MailFaultPlan([MailFaultRule(at: .smtpData, .dropMidway)]))
        data.send("EHLO c\r\nMAIL FROM:<a@b.test>\r\nRCPT TO:<c@d.test>\r\nDATA\r\n")
        #expect(data.output.hasSuffix("354 End data with <CR><LF>.<CR><LF>\r\n") && data.closed == nil)
        data.send("Subject: x\r\n\r\nbody\r\n.\r\n")
        #expect(data.closed == "fault at smtp.data: dropped" && data.delivered.isEmpty)
        var chunk = SMTPTestDialogue(faults: MailFaultPlan([MailFaultRule(at: .smtpChunk, .dropMidway)]))
        chunk.send("EHLO c\r\nMAIL FROM:<a@b.test>\r\nRCPT TO:<c@d.test>\r\nBDAT 10 LAST\r\n")
        #expect(chunk.closed == nil)
        chunk.send("0123456789")
        #expect(chunk.closed == "fault at smtp.bdat: dropped" && chunk.delivered.isEmpty)
    }
}
