import Foundation
import MockServerMail
import Testing

/// The TRANSACTION answers Dovecot 2.3.19's `pop3` gave on a Maildir holding the same four
/// messages (run pre-authenticated, `/usr/lib/dovecot/pop3` with `mail_location = maildir:…`),
/// byte for byte: sizes, bare LF as CRLF, a lone CR kept, dot-stuffing, TOP's line counting.
@Suite("POP3 as Dovecot answers")
struct POP3DovecotParityTests {
    static let messages = ["Subject: Dots\n\n.\n..two\nend", "H: 1\r\nH: 2\r\n", "H: 1\n\n.one\ntwo", "cr\ralone\r\n\r\nx\r"]

    static let exchange: [(command: String, dovecot: String)] = [
        ("LIST", "+OK 4 messages:\r\n1 30\r\n2 12\r\n3 17\r\n4 14\r\n.\r\n"),
        ("TOP 1 1", "+OK\r\nSubject: Dots\r\n\r\n..\r\n.\r\n"),
        ("TOP 2 0", "+OK\r\nH: 1\r\nH: 2\r\n.\r\n"),
        ("TOP 3 0", "+OK\r\nH: 1\r\n\r\n.\r\n"),
        ("TOP 3 1", "+OK\r\nH: 1\r\n\r\n..one\r\n.\r\n"),
        ("TOP 3 9", "+OK\r\nH: 1\r\n\r\n..one\r\ntwo\r\n.\r\n"),
        ("RETR 4", "+OK 14 octets\r\ncr\ralone\r\n\r\nx\r\r\n.\r\n"),
        ("TOP 4 0", "+OK\r\ncr\ralone\r\n\r\n.\r\n"),
        ("RETR 1", "+OK 30 octets\r\nSubject: Dots\r\n\r\n..\r\n...two\r\nend\r\n.\r\n"),
        ("QUIT", "+OK Logging out.\r\n"),
    ]

    @Test("each answer is the bytes Dovecot sent")
    func sameBytes() {
        let store = MailStore()
        for (index, raw) in Self.messages.enumerated() {
            store.deliver(Data(raw.utf8), envelope: MailEnvelope(sender: "", recipients: ["dana@example.net"], origin: .seed(path: "\(index).eml")))
        }
        var dialogue = POP3TestDialogue(store: store)
        dialogue.send("USER dana@example.net\r\nPASS x\r\n")
        for (command, dovecot) in Self.exchange {
            #expect(dialogue.send(command + "\r\n") == dovecot, "\(command)")
        }
    }
}
