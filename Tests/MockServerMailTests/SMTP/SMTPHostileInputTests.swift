import Foundation
@testable import MockServerMail
import Testing

/// Input no client should send: random bytes, input that ends mid-way, numbers with many digits.
@Suite("SMTP session: hostile input")
struct SMTPHostileInputTests {
    @Test("random command-like bytes in random pieces: the session never holds more than an AUTH line, and stays answerable",
          arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func randomInput(seed: UInt64) {
        // The fault plan's seeded generator, so that a failure can be replayed.
        var random = MailFaultRandom(seed: seed)
        let words = ["EHLO x", "HELO", "MAIL FROM:<a@b.test>", "RCPT TO:<c@d.test>", "DATA", "BDAT 3", "BDAT 2 LAST", "RSET", ".", "..",
                     "AUTH PLAIN", "AUTH LOGIN", "*", "=", "NOOP", "\r", "\n", "\r\n", " ", "\u{0}", "\u{FF}", "AAAA", "STARTTLS"]
        let settings = SMTPSettings(hostName: "mx.test", maximumMessageSize: 2000, tls: .offered)
        let store = MailStore(byteLimit: 1 << 16)
        var dialogue = SMTPTestDialogue(settings, store: store)
        var sessions = 1
        var output = ""
        for _ in 0..<1000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                if Bool.random(using: &random), Int.random(in: 0..<20, using: &random) == 0 {
                    bytes += (0..<Int.random(in: 1...700, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                } else {
                    bytes += Array(words.randomElement(using: &random)!.utf8)
                }
            }
            dialogue.send(bytes, piece: Int.random(in: 1...64, using: &random))
            #expect(dialogue.buffer.count <= settings.authenticationLineLimit)
            #expect((dialogue.session.transaction?.body.count ?? 0) <= settings.maximumMessageSize)
            if dialogue.closed != nil {
                output += dialogue.output
                // Closed (a BDAT without a readable size): go on with a new connection.
                dialogue = SMTPTestDialogue(settings, store: store)
                sessions += 1
            }
            if dialogue.startTLSRequested { dialogue.handshake() }
        }
        // Whatever came before, a fresh line end and a command are answered (unless the dialogue closed,
        // or a BDAT chunk or DATA is still reading).
        if dialogue.session.expectsCommand {
            let text = dialogue.send("\r\nNOOP\r\n")
            #expect(text.hasSuffix("250 2.0.0 Ok\r\n") || text.hasSuffix("521 5.5.4 Syntax: BDAT count [LAST]\r\n"))
        }
        #expect(sessions < 1000)
        output += dialogue.output
        // Every reply line: a code from 200 to 599, a space or a hyphen, CRLF; a refusal with an
        // enhanced status code of its class (RFC 3463) after it.
        #expect(output.components(separatedBy: "\r\n").filter { $0.hasPrefix("5") }.count > 10)
        for line in output.components(separatedBy: "\r\n").dropLast() {
            let bytes = Array(line.utf8)
            let code = Int(String(decoding: bytes.prefix(3), as: UTF8.self)) ?? 0
            #expect((200...599).contains(code) && bytes.count >= 4 && (bytes[3] == 0x20 || bytes[3] == 0x2D), "\(line)")
            if code >= 400 {
                let enhanced = line.dropFirst(4).prefix { $0 != " " }.split(separator: ".", omittingEmptySubsequences: false)
                #expect(enhanced.count == 3 && enhanced[0] == "\(code / 100)" && enhanced.dropFirst().allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }, "\(line)")
            }
        }
    }

    @Test("an AUTH line too long, or not UTF-8, is recorded with its credentials masked")
    func authLinesMasked() {
        var dialogue = SMTPTestDialogue()
        dialogue.send("EHLO c\r\n")
        #expect(dialogue.send("AUTH PLAIN " + String(repeating: "c2VjcmV0", count: 2_000) + "\r\n").hasPrefix("500 5.5.2"))
        #expect(dialogue.send(Array("auth plain c2VjcmV0\u{FF}".utf8) + [0xFF, 0x0D, 0x0A]).hasPrefix("500 5.5.2"))
        #expect(dialogue.records.suffix(2) == ["AUTH MASKED", "AUTH MASKED"], "\(dialogue.records.suffix(2))")
        #expect(!dialogue.records.joined().contains("c2VjcmV0"))
    }

    @Test("after a refused greeting, a BDAT chunk is read and refused, never taken for commands (RFC 3030 §2)")
    func chunkAfterRefusedGreeting() {
        let faults = MailFaultPlan([MailFaultRule(at: .smtpGreeting, .reply(code: 554, text: "5.3.2 Not now"))])
        var dialogue = SMTPTestDialogue(faults: faults)
        let answer = dialogue.send("BDAT 6 LAST\r\nQUIT\r\nNOOP\r\n")
        #expect(answer.hasPrefix("503 "), "\(answer)")
        #expect(!answer.contains("221"), "the chunk's QUIT was answered: \(answer)")
        #expect(answer == "503 5.5.1 Error: service refused; send QUIT\r\n503 5.5.1 Error: service refused; send QUIT\r\n", "\(answer.debugDescription)")
    }

    @Test("input that ends in DATA stores nothing; an unfinished command is not answered")
    func inputEnded() {
        var dialogue = SMTPTestDialogue()
        dialogue.send("EHLO c\r\nMAIL FROM:<a@b.test>\r\nRCPT TO:<c@d.test>\r\nDATA\r\nSubject: half\r\n")
        var rest = ArraySlice("QUIT".utf8)
        #expect(dialogue.session.inputEnded(&rest).isEmpty)
        #expect(dialogue.session.isClosed && dialogue.delivered.isEmpty)
        #expect(dialogue.session.read(&rest).isEmpty)
    }

    @Test("SIZE with leading zeros is its value; DATA's end split across reads waits for its third byte")
    func numbersAndSplits() {
        var dialogue = SMTPTestDialogue()
        #expect(dialogue.send("EHLO c\r\nMAIL FROM:<a@b.test> SIZE=000000000000000000000012\r\n").hasSuffix("250 2.1.0 Ok\r\n"))
        dialogue.send("RCPT TO:<c@d.test>\r\nDATA\r\nx\r\n")
        #expect(dialogue.send(".") == "" && dialogue.buffer.count == 1)
        #expect(dialogue.send("\r") == "" && dialogue.buffer.count == 2)
        #expect(dialogue.send("\n").hasPrefix("250 2.0.0 Ok: queued as "))
    }
}
