import Foundation
@testable import MockServerMail
import MockServerCore
import Testing

/// An SMTP session's dialogue: the commands, their successes and refusals, pipelining, line ends.
@Suite("SMTP session: commands")
struct SMTPSessionTests {
    static let message = "From: dana@example.net\r\nTo: lee@example.org\r\nSubject: Hi\r\n\r\nHello\r\n..dot\r\n"
    static let dialogue = "EHLO client.test\r\nMAIL FROM:<dana@example.net> SIZE=100 BODY=8BITMIME\r\nRCPT TO:<lee@example.org>\r\n"
        + "RCPT TO:<kim@example.org> NOTIFY=SUCCESS,FAILURE ORCPT=rfc822;kim@example.org\r\nDATA\r\n" + message + ".\r\nQUIT\r\n"

    @Test("a whole dialogue: the replies, the stored bytes and envelope, the transcript's lines")
    func wholeDialogue() throws {
        let store = MailStore()
        let client = try NetworkAddress(host: "127.0.0.1", port: 40000)
        var dialogue = SMTPTestDialogue(store: store, client: client)
        #expect(dialogue.output == "220 mx.test ESMTP MockServer\r\n")
        dialogue.send(Self.dialogue)
        let replies = dialogue.output.split(separator: "\r\n").map(String.init)
        #expect(Array(replies[1...10]) == ["250-mx.test", "250-PIPELINING", "250-SIZE 10240000", "250-AUTH PLAIN LOGIN CRAM-MD5 XOAUTH2",
                                            "250-ENHANCEDSTATUSCODES", "250-8BITMIME", "250-DSN", "250-SMTPUTF8", "250 CHUNKING", "250 2.1.0 Ok"])
        #expect(Array(replies[11...13]) == ["250 2.1.5 Ok", "250 2.1.5 Ok", "354 End data with <CR><LF>.<CR><LF>"])
        let transaction = try #require(dialogue.delivered.first)
        #expect(replies[14] == "250 2.0.0 Ok: queued as \(transaction.id)")
        #expect(replies[15] == "221 2.0.0 Bye")
        #expect(dialogue.closed == "QUIT")
        #expect(String(decoding: transaction.raw, as: UTF8.self) == Self.message.replacingOccurrences(of: "\r\n..dot", with: "\r\n.dot"))
        #expect(transaction.envelope.sender == "dana@example.net")
        #expect(transaction.envelope.recipients == ["lee@example.org", "kim@example.org"])
        guard case .smtp(let helo, let address, let security, let user) = transaction.envelope.origin else { Issue.record("origin"); return }
        #expect(helo == "client.test" && address == client && security == .plain && user == nil)
        #expect(store.messages(of: "kim@example.org").count == 1 && store.transactions.count == 1)
        #expect(dialogue.records == ["EHLO client.test", "MAIL FROM:<dana@example.net> SIZE=100 BODY=8BITMIME", "RCPT TO:<lee@example.org>",
                                     "RCPT TO:<kim@example.org> NOTIFY=SUCCESS,FAILURE ORCPT=rfc822;kim@example.org", "DATA", "QUIT"])
    }

    @Test("the same dialogue fed in every piece size gives the same replies and bytes", arguments: [1, 2, 3, 5, 7, 13, 64, 511])
    func everySplit(piece: Int) throws {
        var whole = SMTPTestDialogue()
        whole.send(Self.dialogue)
        var split = SMTPTestDialogue()
        split.send(Self.dialogue, piece: piece)
        let id = try #require(split.delivered.first).id, wholeID = try #require(whole.delivered.first).id
        #expect(split.output == whole.output.replacingOccurrences(of: wholeID, with: id))
        #expect(split.delivered.first?.raw == whole.delivered.first?.raw)
        #expect(split.records == whole.records)
    }

    @Test("bare LF ends command lines as CRLF does")
    func bareLF() {
        var dialogue = SMTPTestDialogue()
        let text = dialogue.send("HELO client\nMAIL FROM:<a@b.test>\nRCPT TO:<c@d.test>\nRSET\n")
        #expect(text == "250 mx.test\r\n250 2.1.0 Ok\r\n250 2.1.5 Ok\r\n250 2.0.0 Ok\r\n")
    }

    @Test("pipelined commands in one read are answered in order, one read call each")
    func pipelining() {
        var dialogue = SMTPTestDialogue()
        dialogue.send("EHLO c\r\n")
        var input = ArraySlice("MAIL FROM:<a@b.test>\r\nRCPT TO:<c@d.test>\r\nRCPT TO:<bad address>\r\nDATA\r\n".utf8)
        var codes: [Int] = []
        while !input.isEmpty {
            for case .send(let bytes) in dialogue.session.read(&input) { codes += SMTPTestDialogue.codes(String(decoding: bytes, as: UTF8.self)) }
            #expect(codes.count <= 4)
        }
        #expect(codes == [250, 250, 501, 354])
    }

    @Test("sequence: MAIL before HELO, RCPT before MAIL, DATA without recipients, nested MAIL, EHLO resets")
    func sequence() {
        var dialogue = SMTPTestDialogue()
        #expect(dialogue.send("MAIL FROM:<a@b.test>\r\n") == "503 5.5.1 Error: send HELO/EHLO first\r\n")
        dialogue.send("EHLO c\r\n")
        #expect(dialogue.send("RCPT TO:<a@b.test>\r\n") == "503 5.5.1 Error: need MAIL command\r\n")
        #expect(dialogue.send("DATA\r\n") == "503 5.5.1 Error: need RCPT command\r\n")
        #expect(dialogue.send("MAIL FROM:<>\r\n") == "250 2.1.0 Ok\r\n")
        #expect(dialogue.send("MAIL FROM:<a@b.test>\r\n") == "503 5.5.1 Error: nested MAIL command\r\n")
        #expect(dialogue.send("DATA\r\n") == "554 5.5.1 Error: no valid recipients\r\n")
        dialogue.send("EHLO again\r\n")
        #expect(dialogue.send("RCPT TO:<a@b.test>\r\n") == "503 5.5.1 Error: need MAIL command\r\n")
        dialogue.send("MAIL FROM:<a@b.test>\r\nRCPT TO:<c@d.test>\r\n")
        #expect(dialogue.send("RSET\r\nRCPT TO:<a@b.test>\r\n") == "250 2.0.0 Ok\r\n503 5.5.1 Error: need MAIL command\r\n")
    }

    @Test("syntax: 501 for bad arguments, 500 for unknown or empty commands, 502 for the unimplemented")
    func syntax() {
        var dialogue = SMTPTestDialogue()
        let expectations: [(String, String)] = [
            ("EHLO", "501 5.5.4 Syntax: EHLO hostname"), ("HELO ", "501 5.5.4 Syntax: HELO hostname"),
            ("FOO bar", "500 5.5.2 Error: command not recognized"), ("", "500 5.5.2 Error: bad syntax"),
            ("EXPN staff", "502 5.5.1 Error: command not implemented"), ("VRFY", "501 5.5.4 Syntax: VRFY address"),
            ("VRFY dana", "252 2.0.0 Cannot verify the user; send mail and delivery will be attempted"),
            ("NOOP anything", "250 2.0.0 Ok"), ("RSET now", "501 5.5.4 Syntax: RSET"),
            ("STARTTLS", "502 5.5.1 Error: command not implemented"),
            ("ehlo lower.case", "250-mx.test"),
            ("MAIL TO:<a@b.test>", "501 5.5.4 Syntax: MAIL FROM:<address>"), ("MAIL FROM:<a@b.test", "501 5.5.4 Syntax: MAIL FROM:<address>"),
            ("MAIL FROM:<a b@c.test>", "501 5.1.7 Bad sender address syntax"), ("MAIL FROM:<a@>", "501 5.1.7 Bad sender address syntax"),
            ("MAIL FROM:<a@b.test> SIZE=10240001", "552 5.3.4 Message size exceeds fixed limit"),
            ("MAIL FROM:<a@b.test> SIZE=99999999999999999999999", "552 5.3.4 Message size exceeds fixed limit"),
            ("MAIL FROM:<a@b.test> SIZE=ten", "501 5.5.4 Bad SIZE parameter syntax"),
            ("MAIL FROM:<a@b.test> BODY=BINARYMIME", "501 5.5.4 Bad BODY parameter syntax"),
            ("MAIL FROM:<a@b.test> RET=ALL", "501 5.5.4 Bad RET parameter syntax"),
            ("MAIL FROM:<a@b.test> SMTPUTF8=yes", "501 5.5.4 Bad SMTPUTF8 parameter syntax"),
            ("MAIL FROM:<a@b.test> XFORWARD=1", "555 5.5.4 Unsupported option: XFORWARD"),
            ("MAIL FROM:<dörte@b.test>", "553 5.6.7 Must declare SMTPUTF8 to send a UTF-8 address"),
            ("MAIL FROM: <dörte@b.test> SMTPUTF8 RET=HDRS ENVID=QQ314159 AUTH=<>", "250 2.1.0 Ok"),
            ("RCPT TO:<>", "501 5.1.3 Bad recipient address syntax"), ("RCPT <x@y.test>", "501 5.5.4 Syntax: RCPT TO:<address>"),
            ("RCPT TO:<x@y.test> NOTIFY=NEVER,SUCCESS", "501 5.5.4 Bad NOTIFY parameter syntax"),
            ("RCPT TO:<x@y.test> ORCPT=rfc822", "501 5.5.4 Bad ORCPT parameter syntax"),
            ("RCPT TO:<x@y.test> FOO", "555 5.5.4 Unsupported option: FOO"),
            ("RCPT TO:<ünï@y.test> NOTIFY=never", "250 2.1.5 Ok"), ("RCPT TO:<postmaster>", "250 2.1.5 Ok"),
            ("DATA now", "501 5.5.4 Syntax: DATA"),
        ]
        for (command, reply) in expectations {
            let text = dialogue.send(command + "\r\n")
            #expect(text.hasPrefix(reply + "\r\n"), "\(command) → \(text)")
        }
    }

    @Test("a command line that is not UTF-8 gets 500 5.5.2 and is recorded as received")
    func badUTF8() {
        var dialogue = SMTPTestDialogue()
        #expect(dialogue.send([0x45, 0x48, 0x4C, 0x4F, 0x20, 0xFF, 0xFE, 0x0D, 0x0A]) == "500 5.5.2 Error: bad UTF-8 syntax\r\n")
        #expect(dialogue.records.last == "EHLO \u{FFFD}\u{FFFD}")
        #expect(dialogue.send("HELO ok\r\n") == "250 mx.test\r\n")
    }

    @Test("HELP lists the commands; QUIT closes and later input is not answered")
    func helpAndQuit() {
        var dialogue = SMTPTestDialogue()
        #expect(dialogue.send("HELP\r\n").hasPrefix("214 2.0.0 Commands: EHLO"))
        #expect(dialogue.send("QUIT\r\nNOOP\r\n") == "221 2.0.0 Bye\r\n")
        #expect(dialogue.session.isClosed && dialogue.closed == "QUIT")
    }

    @Test("a driver's script path: commandLine(in:) cuts the line, command(_:) answers it")
    func scriptPath() {
        var dialogue = SMTPTestDialogue()
        let input = ArraySlice("EHLO c\r\nNOOP\r\n".utf8)
        #expect(dialogue.session.expectsCommand)
        let cut = dialogue.session.commandLine(in: input)
        #expect(cut.map { String(decoding: $0.line, as: UTF8.self) } == "EHLO c" && cut?.length == 8)
        #expect(dialogue.session.commandLine(in: ArraySlice("NOOP".utf8)) == nil)
        #expect(dialogue.session.commandLine(in: ArraySlice((String(repeating: "x", count: 600) + "\r\n").utf8)) == nil)
        dialogue.run(dialogue.session.command(cut!.line))
        #expect(dialogue.output.hasSuffix("250 CHUNKING\r\n"))
        dialogue.run(dialogue.session.command(ArraySlice("MAIL FROM:<a@b.test>".utf8)))
        dialogue.run(dialogue.session.command(ArraySlice("RCPT TO:<a@b.test>".utf8)))
        dialogue.run(dialogue.session.command(ArraySlice("DATA".utf8)))
        #expect(!dialogue.session.expectsCommand)
    }

    @Test("an over-long command gets exactly one 500 5.5.2, is never split, and the next command is answered", arguments: [1, 100, 4096])
    func longCommand(piece: Int) {
        var dialogue = SMTPTestDialogue()
        let long = "NOOP " + String(repeating: "RSET\r", count: 200) + "\r\nHELO next\r\n"
        let text = dialogue.send(long, piece: piece)
        #expect(text == "500 5.5.2 Error: line too long\r\n250 mx.test\r\n")
        #expect(dialogue.buffer.isEmpty)
        // 510 bytes and CRLF is the longest allowed; 511 is refused.
        #expect(dialogue.send("NOOP " + String(repeating: "x", count: 505) + "\r\n") == "250 2.0.0 Ok\r\n")
        #expect(dialogue.send("NOOP " + String(repeating: "x", count: 506) + "\r\n") == "500 5.5.2 Error: line too long\r\n")
    }

    @Test("an over-long line never held: a line with no end is consumed as it arrives")
    func longLineNotHeld() {
        var dialogue = SMTPTestDialogue()
        dialogue.send(String(repeating: "A", count: 600))
        #expect(dialogue.buffer.isEmpty && !dialogue.session.expectsCommand)
        dialogue.send(String(repeating: "A", count: 100_000))
        #expect(dialogue.buffer.isEmpty)
        #expect(dialogue.send("\r\nNOOP\r\n") == "250 2.0.0 Ok\r\n")
        #expect(SMTPTestDialogue.codes(dialogue.output) == [220, 500, 250])
    }

    @Test("past the recipient limit each RCPT gets 452 4.5.3")
    func recipientLimit() {
        var dialogue = SMTPTestDialogue(SMTPSettings(maximumRecipients: 2))
        dialogue.send("EHLO c\r\nMAIL FROM:<a@b.test>\r\n")
        let text = dialogue.send("RCPT TO:<1@b.test>\r\nRCPT TO:<2@b.test>\r\nRCPT TO:<3@b.test>\r\nRCPT TO:<4@b.test>\r\n")
        #expect(SMTPTestDialogue.codes(text) == [250, 250, 452, 452])
        #expect(text.contains("452 4.5.3 Error: too many recipients\r\n"))
        dialogue.send("DATA\r\nx\r\n.\r\n")
        #expect(dialogue.delivered.first?.envelope.recipients == ["1@b.test", "2@b.test"])
    }
}
