import Foundation
@testable import MockServerMail
import Testing

/// DATA's end and dot-stuffing, BDAT's chunks, and the size and line limits on both.
@Suite("SMTP session: DATA and BDAT")
struct SMTPMessageTests {
    /// A dialogue in a transaction with one recipient, ready for DATA or BDAT.
    static func ready(_ settings: SMTPSettings = SMTPSettings(hostName: "mx.test")) -> SMTPTestDialogue {
        var dialogue = SMTPTestDialogue(settings)
        dialogue.send("EHLO c\r\nMAIL FROM:<a@b.test>\r\nRCPT TO:<c@d.test>\r\n")
        return dialogue
    }

    static func stored(_ dialogue: SMTPTestDialogue) -> String? {
        dialogue.delivered.last.map { String(decoding: $0.raw, as: UTF8.self) }
    }

    @Test("only CRLF.CRLF ends DATA; bare LF or CR before a dot never does; stuffed dots are undone",
          arguments: [
            ("a\n.\nb\r\n.\r\n", "a\n.\nb\r\n"),
            ("a\r.\r\nb\r\n.\r\n", "a\r.\r\nb\r\n"),
            ("a\n.\r\nb\r\n.\r\n", "a\n.\r\nb\r\n"),
            ("..leading\r\n...two\r\n..\r\n.\r\n", ".leading\r\n..two\r\n.\r\n"),
            (".\r\n", ""),
            ("no line end.\r\n.\r\n", "no line end.\r\n"),
            (".x\r\n.\r\n", "x\r\n"),
            ("a\r\n.\rb\r\n.\r\n", "a\r\n\rb\r\n"),
          ])
    func dataEnd(sent: String, kept: String) {
        for piece in [1, 2, 3, 1000] {
            var dialogue = Self.ready()
            dialogue.send("DATA\r\n")
            let text = dialogue.send(sent + "NOOP\r\n", piece: piece)
            #expect(SMTPTestDialogue.codes(text) == [250, 250], "piece \(piece)")
            #expect(Self.stored(dialogue) == kept, "piece \(piece)")
            #expect(dialogue.delivered.count == 1)
        }
    }

    @Test("a message past the size limit: its bytes are discarded as they arrive, then 552 5.3.4, nothing stored")
    func dataTooBig() {
        var dialogue = Self.ready(SMTPSettings(maximumMessageSize: 100))
        dialogue.send("DATA\r\n")
        dialogue.send(String(repeating: "0123456789\r\n", count: 100))
        #expect(dialogue.session.transaction?.body.isEmpty == true)
        #expect(dialogue.send(".\r\n") == "552 5.3.4 Message size exceeds fixed limit\r\n")
        #expect(dialogue.delivered.isEmpty)
        // Exactly at the limit is fine.
        dialogue.send("MAIL FROM:<a@b.test>\r\nRCPT TO:<c@d.test>\r\nDATA\r\n")
        #expect(SMTPTestDialogue.codes(dialogue.send(String(repeating: "x", count: 98) + "\r\n.\r\n")) == [250])
    }

    @Test("a text line over 1,000 bytes refuses the message at its end with 500 5.5.2")
    func dataLongLine() {
        var dialogue = Self.ready()
        dialogue.send("DATA\r\n")
        #expect(dialogue.send(String(repeating: "x", count: 998) + "\r\n.\r\n").hasPrefix("250 "))
        dialogue.send("MAIL FROM:<a@b.test>\r\nRCPT TO:<c@d.test>\r\nDATA\r\n")
        #expect(dialogue.send(String(repeating: "x", count: 999) + "\r\n.\r\n") == "500 5.5.2 Error: message line too long\r\n")
        #expect(dialogue.delivered.count == 1)
    }

    @Test("BDAT: chunks answered once all has arrived, LAST stores, BDAT 0 LAST, the bytes kept exactly")
    func bdat() {
        var dialogue = Self.ready()
        #expect(dialogue.send("BDAT 11\r\n.\r\nab") == "")
        #expect(!dialogue.session.expectsCommand)
        #expect(dialogue.send("cdefg", piece: 1) == "")
        #expect(dialogue.send("hNOOP\r\n") == "250 2.0.0 11 octets received\r\n250 2.0.0 Ok\r\n")
        #expect(dialogue.send("DATA\r\n") == "503 5.5.1 Error: DATA after BDAT\r\n")
        #expect(dialogue.send("RCPT TO:<e@f.test>\r\n") == "503 5.5.1 Error: RCPT after BDAT\r\n")
        #expect(dialogue.send("BDAT 3 last\r\n\r\n.").hasPrefix("250 2.0.0 Ok: queued as "))
        #expect(Self.stored(dialogue) == ".\r\nabcdefgh\r\n.")
        dialogue.send("MAIL FROM:<a@b.test>\r\nRCPT TO:<c@d.test>\r\n")
        #expect(dialogue.send("BDAT 0 LAST\r\n").hasPrefix("250 2.0.0 Ok: queued as "))
        #expect(Self.stored(dialogue) == "")
    }

    @Test("BDAT sizes: plain digits below 2^63 only; otherwise 521 and the connection closes, its chunk never read as commands", arguments: [
        "BDAT", "BDAT x", "BDAT -1", "BDAT +5", "BDAT 0x10", "BDAT 1e3", "BDAT 5 FIRST", "BDAT 5 LAST more",
        "BDAT 9223372036854775808", "BDAT 18446744073709551616", "BDAT 99999999999999999999", "BDAT ５",
    ])
    func bdatSyntax(command: String) {
        var dialogue = Self.ready()
        #expect(dialogue.send(command + "\r\nRSET\r\n") == "521 5.5.4 Syntax: BDAT count [LAST]\r\n")
        #expect(dialogue.closed == "BDAT without a readable size" && dialogue.session.isClosed)
    }

    @Test("BDAT 2^63-1: a valid size over the limit; the bytes are consumed and discarded, never held")
    func bdatHuge() {
        var dialogue = Self.ready(SMTPSettings(maximumMessageSize: 1000))
        #expect(dialogue.send("BDAT 9223372036854775807 LAST\r\n") == "")
        for _ in 0..<10 { dialogue.send(String(repeating: "z", count: 10_000)) }
        #expect(dialogue.buffer.isEmpty && dialogue.session.transaction?.body.isEmpty == true && !dialogue.session.expectsCommand)
        var small = Self.ready(SMTPSettings(maximumMessageSize: 10))
        #expect(small.send("BDAT 11\r\n0123456789") == "")
        #expect(small.send("aNOOP\r\n") == "552 5.3.4 Message size exceeds fixed limit\r\n250 2.0.0 Ok\r\n")
        // The refused chunk failed the transaction.
        #expect(small.send("BDAT 1 LAST\r\nx") == "503 5.5.1 Error: need MAIL command\r\n")
        #expect(small.delivered.isEmpty)
    }

    @Test("BDAT out of sequence: its bytes are still read, then 503 or 554; the bytes are never taken as commands")
    func bdatSequence() {
        var dialogue = SMTPTestDialogue()
        #expect(dialogue.send("BDAT 6\r\nQUIT\r\n") == "503 5.5.1 Error: send HELO/EHLO first\r\n")
        dialogue.send("EHLO c\r\n")
        #expect(dialogue.send("BDAT 6 LAST\r\nQUIT\r\n") == "503 5.5.1 Error: need MAIL command\r\n")
        dialogue.send("MAIL FROM:<a@b.test>\r\n")
        #expect(dialogue.send("BDAT 6 LAST\r\nQUIT\r\n") == "554 5.5.1 Error: no valid recipients\r\n")
        #expect(dialogue.closed == nil)
    }
}
