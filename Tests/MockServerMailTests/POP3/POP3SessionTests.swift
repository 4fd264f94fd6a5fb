import Foundation
import MockServerMail
import Testing

/// A whole POP3 session, every split of its input, pipelining, line ends and each TRANSACTION
/// command's success and failure.
@Suite("POP3 session")
struct POP3SessionTests {
    /// A whole session's commands and what each must answer, on ``popStore()``.
    static let exchange: [(command: String, reply: String)] = [
        ("CAPA", "+OK\r\nCAPA\r\nTOP\r\nUIDL\r\nRESP-CODES\r\nPIPELINING\r\nAUTH-RESP-CODE\r\nUSER\r\nSASL PLAIN LOGIN CRAM-MD5 XOAUTH2\r\nIMPLEMENTATION MockServer\r\n.\r\n"),
        ("USER dana@example.net", "+OK\r\n"),
        ("PASS any secret", "+OK Logged in.\r\n"),
        ("STAT", "+OK 2 154\r\n"),
        ("LIST", "+OK 2 messages:\r\n1 77\r\n2 77\r\n.\r\n"),
        ("LIST 2", "+OK 2 77\r\n"),
        ("UIDL", "+OK\r\n1 0000000165a1f2c0\r\n2 0000000265a1f2c0\r\n.\r\n"),
        ("UIDL 1", "+OK 1 0000000165a1f2c0\r\n"),
        ("RETR 1", "+OK 77 octets\r\nFrom: app@shop.example\r\nTo: dana@example.net\r\nSubject: Message 1\r\n\r\nBody 1.\r\n.\r\n"),
        ("TOP 2 0", "+OK\r\nFrom: app@shop.example\r\nTo: dana@example.net\r\nSubject: Message 2\r\n\r\n.\r\n"),
        ("NOOP", "+OK\r\n"),
        ("DELE 1", "+OK Marked to be deleted.\r\n"),
        ("STAT", "+OK 1 77\r\n"),
        ("LIST", "+OK 1 messages:\r\n2 77\r\n.\r\n"),
        ("RSET", "+OK\r\n"),
        ("STAT", "+OK 2 154\r\n"),
        ("DELE 2", "+OK Marked to be deleted.\r\n"),
        ("QUIT", "+OK Logging out, messages deleted.\r\n"),
    ]

    static var input: String { exchange.map { $0.command + "\r\n" }.joined() }
    static var output: String { POP3TestDialogue.greeting + exchange.map(\.reply).joined() }

    @Test("a whole session, one command at a time: each answer exactly, the recorded lines, QUIT's UPDATE")
    func wholeSession() {
        let store = popStore()
        var dialogue = POP3TestDialogue(store: store)
        for (command, reply) in Self.exchange {
            #expect(dialogue.send(command + "\r\n") == reply, "\(command)")
        }
        #expect(dialogue.closed == "QUIT")
        #expect(dialogue.recorded == Self.exchange.map { $0.command == "PASS any secret" ? "PASS MASKED" : $0.command })
        #expect(store.messages(of: "dana@example.net").map(\.uid) == [1])
        #expect(store.messages(of: "lee@example.org").count == 1)
    }

    @Test("every split of the whole input into two reads answers the same bytes", arguments: [POP3TestDialogue.Path.read, .scripted])
    func everySplit(path: POP3TestDialogue.Path) {
        let input = Array(Self.input.utf8)
        for split in 0...input.count {
            var dialogue = POP3TestDialogue(store: popStore(), path: path)
            dialogue.feed(Array(input[..<split]))
            dialogue.feed(Array(input[split...]))
            #expect(dialogue.transcript == Self.output, "split at \(split)")
        }
    }

    @Test("one byte at a time, and all of it pipelined in one read, answer the same bytes in order",
          arguments: [1, 2, 3, 7, 64, Int.max])
    func chunks(size: Int) {
        var dialogue = POP3TestDialogue(store: popStore())
        dialogue.send(Self.input, chunk: size)
        #expect(dialogue.transcript == Self.output)
        #expect(dialogue.closed == "QUIT")
    }

    @Test("LF alone ends a command as CRLF does")
    func bareLF() {
        var dialogue = POP3TestDialogue(store: popStore())
        dialogue.send(Self.exchange.map { $0.command + "\n" }.joined())
        #expect(dialogue.transcript == Self.output)
    }

    @Test("keywords in any case; arguments after several spaces")
    func keywordCase() {
        var dialogue = POP3TestDialogue(store: popStore())
        #expect(dialogue.send("user dana@example.net\r\n") == "+OK\r\n")
        #expect(dialogue.send("Pass x\r\n") == "+OK Logged in.\r\n")
        #expect(dialogue.send("list   2\r\n") == "+OK 2 77\r\n")
        #expect(dialogue.send("tOp  1   1\r\n").hasSuffix("\r\n\r\nBody 1.\r\n.\r\n"))
    }

    @Test("TRANSACTION commands before login are unknown to AUTHORIZATION, as Dovecot answers",
          arguments: ["STAT", "LIST", "LIST 1", "RETR 1", "TOP 1 1", "UIDL", "DELE 1", "RSET", "NOOP", "XYZZY", ""])
    func wrongStateBeforeLogin(command: String) {
        let store = popStore()
        var dialogue = POP3TestDialogue(store: store)
        #expect(dialogue.send(command + "\r\n") == "-ERR Unknown command.\r\n")
        #expect(dialogue.closed == nil)
        #expect(store.messages(of: "dana@example.net").count == 2)
    }

    @Test("in TRANSACTION: a refused message number or count says why, unknown commands, and CAPA without USER or SASL, in Dovecot's words", arguments: [
        ("RETR", "-ERR Invalid message number: "),
        ("RETR x", "-ERR Invalid message number: x"),
        ("RETR -1", "-ERR Invalid message number: -1"),
        ("RETR 0", "-ERR There's no message 0."),
        ("RETR 3", "-ERR There's no message 3."),
        ("RETR 1x", "-ERR Noise after message number: x"),
        ("RETR 1 2", "-ERR Noise after message number:  2"),
        ("RETR 99999999999999999999999", "-ERR Message number too large: 99999999999999999999999"),
        ("LIST 3", "-ERR There's no message 3."),
        ("UIDL 0", "-ERR There's no message 0."),
        ("DELE 9", "-ERR There's no message 9."),
        ("TOP 1", "-ERR Noise after message number: "),
        ("TOP 1 x", "-ERR Invalid size: x"),
        ("TOP 1 2 3", "-ERR Noise after size:  3"),
        ("TOP 1 99999999999999999999999", "-ERR Size too large: 99999999999999999999999"),
        ("USER dana@example.net", "-ERR Unknown command: USER"),
        ("STLS", "-ERR Unknown command: STLS"),
        ("FOO bar", "-ERR Unknown command: FOO"),
        ("", "-ERR Unknown command."),
        ("CAPA", "+OK\r\nCAPA\r\nTOP\r\nUIDL\r\nRESP-CODES\r\nPIPELINING\r\nAUTH-RESP-CODE\r\nIMPLEMENTATION MockServer\r\n."),
    ])
    func refusals(command: String, reply: String) {
        var dialogue = POP3TestDialogue(store: popStore())
        dialogue.send("USER dana@example.net\r\nPASS x\r\n")
        #expect(dialogue.send(command + "\r\n") == reply + "\r\n")
        #expect(dialogue.closed == nil)
        #expect(dialogue.send("NOOP\r\n") == "+OK\r\n")
    }

    @Test("a message marked by DELE is refused by every later command that names it, and left out of listings")
    func deletedMessage() {
        var dialogue = POP3TestDialogue(store: popStore(3))
        dialogue.send("USER dana@example.net\r\nPASS x\r\n")
        #expect(dialogue.send("DELE 2\r\n") == "+OK Marked to be deleted.\r\n")
        for command in ["RETR 2", "TOP 2 1", "LIST 2", "UIDL 2", "DELE 2"] {
            #expect(dialogue.send(command + "\r\n") == "-ERR Message is deleted.\r\n", "\(command)")
        }
        #expect(dialogue.send("UIDL\r\n") == "+OK\r\n1 0000000165a1f2c0\r\n3 0000000365a1f2c0\r\n.\r\n")
        #expect(dialogue.send("STAT\r\n") == "+OK 2 154\r\n")
    }

    @Test("an empty maildrop: STAT 0 0, empty listings, RETR 1 refused")
    func emptyMaildrop() {
        var dialogue = POP3TestDialogue(store: popStore(0))
        dialogue.send("USER dana@example.net\r\nPASS x\r\n")
        #expect(dialogue.send("STAT\r\n") == "+OK 0 0\r\n")
        #expect(dialogue.send("LIST\r\n") == "+OK 0 messages:\r\n.\r\n")
        #expect(dialogue.send("UIDL\r\n") == "+OK\r\n.\r\n")
        #expect(dialogue.send("RETR 1\r\n") == "-ERR There's no message 1.\r\n")
        #expect(dialogue.send("QUIT\r\n") == "+OK Logging out.\r\n")
    }

    @Test("QUIT before login closes without UPDATE; input after the close is never answered")
    func quitInAuthorization() {
        var dialogue = POP3TestDialogue(store: popStore())
        #expect(dialogue.send("QUIT\r\nNOOP\r\n") == "+OK Logging out.\r\n")
        #expect(dialogue.closed == "QUIT")
    }

    @Test("bad UTF-8 in a command is answered, never a crash: a keyword that is not one is unknown")
    func badUTF8() {
        var dialogue = POP3TestDialogue(store: popStore())
        #expect(dialogue.feed([0xFF, 0xFE, 0x0D, 0x0A]) == Array("-ERR Unknown command.\r\n".utf8))
        #expect(dialogue.feed(Array("USER ".utf8) + [0xC3, 0x28] + [0x0D, 0x0A]) == Array("+OK\r\n".utf8))
        #expect(dialogue.send("PASS x\r\n") == "+OK Logged in.\r\n")
        #expect(dialogue.send("STAT\r\n") == "+OK 0 0\r\n")
    }

    @Test("the snapshot is taken at login: mail that arrives later is not numbered in this session")
    func snapshot() {
        let store = popStore()
        var dialogue = POP3TestDialogue(store: store)
        dialogue.send("USER dana@example.net\r\nPASS x\r\n")
        store.deliver(Data("Subject: Late\r\n\r\nLate.\r\n".utf8),
                      envelope: MailEnvelope(sender: "", recipients: ["dana@example.net"], origin: .seed(path: "late.eml")))
        #expect(dialogue.send("STAT\r\n") == "+OK 2 154\r\n")
        #expect(dialogue.send("RETR 3\r\n") == "-ERR There's no message 3.\r\n")
    }

    @Test("the input ending mid-line answers nothing more, sends nothing; the session is then over")
    func inputEnded() {
        var dialogue = POP3TestDialogue(store: popStore())
        #expect(dialogue.send("NOOP") == "")
        dialogue.end()
        #expect(dialogue.transcript == POP3TestDialogue.greeting)
        #expect(dialogue.pending.isEmpty)
        #expect(dialogue.session.expectsCommand == false)
        var input = ArraySlice(Array("NOOP\r\n".utf8))
        #expect(dialogue.session.read(&input) == [] && input.isEmpty)
    }
}
