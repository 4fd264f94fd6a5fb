import Foundation
import MockServerMail
import Testing

/// Byte-stuffing a stored message into a multi-line answer, and a client's unstuffing of it.
@Suite("POP3 byte-stuffing")
struct POP3DotStuffingTests {
    static func stuffed(_ raw: String, bodyLines: Int? = nil) -> String {
        var output: [UInt8] = []
        POP3DotStuffing.append(Data(raw.utf8), bodyLines: bodyLines, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// What a client does with a multi-line answer (RFC 1939 §3): lines up to the lone `.`, a
    /// leading `.` of each removed.
    static func unstuffed(_ answer: String) -> String {
        var lines = answer.components(separatedBy: "\r\n")
        #expect(lines.last == "" && lines.dropLast().last == ".")
        lines.removeLast(2)
        return lines.map { $0.hasPrefix(".") ? String($0.dropFirst()) : $0 }.map { $0 + "\r\n" }.joined()
    }

    @Test("a line starting with a dot gets another; a lone dot line is not the end", arguments: [
        ("a\r\n.b\r\n..c\r\n.\r\nd\r\n", "a\r\n..b\r\n...c\r\n..\r\nd\r\n.\r\n"),
        (".\r\n", "..\r\n.\r\n"),
        ("x.\r\n. \r\n", "x.\r\n.. \r\n.\r\n"),
    ])
    func dots(raw: String, expected: String) {
        #expect(Self.stuffed(raw) == expected)
        #expect(Self.unstuffed(Self.stuffed(raw)) == raw)
    }

    @Test("bare LFs are sent as CRLF (also before a dot), a missing final line end is added, CR alone is kept")
    func lineEnds() {
        #expect(Self.stuffed("a\nb\r\n.c\n") == "a\r\nb\r\n..c\r\n.\r\n")
        #expect(Self.stuffed("no end") == "no end\r\n.\r\n")
        #expect(Self.stuffed("cr\ralone\r\n") == "cr\ralone\r\n.\r\n")
        #expect(Self.stuffed("\n\n") == "\r\n\r\n.\r\n")
        #expect(Self.stuffed("") == ".\r\n")
    }

    @Test("the size reported counts each bare LF as CRLF, never the stuffing", arguments: [
        ("a\r\nb\r\n", 6), ("a\nb\n", 6), ("\n", 2), ("x", 1), (".\r\n", 3), ("", 0), ("a\r\n\n", 5),
    ])
    func size(raw: String, size: Int) {
        #expect(POP3DotStuffing.transmittedSize(of: Data(raw.utf8)) == size)
    }

    @Test("TOP: the header, the empty line and so many body lines, stuffed alike", arguments: [
        (0, "H: 1\r\n\r\n.\r\n"), (1, "H: 1\r\n\r\n..one\r\n.\r\n"), (2, "H: 1\r\n\r\n..one\r\ntwo\r\n.\r\n"),
        (9, "H: 1\r\n\r\n..one\r\ntwo\r\n.\r\n"),
    ])
    func top(lines: Int, expected: String) {
        #expect(Self.stuffed("H: 1\n\n.one\ntwo", bodyLines: lines) == expected)
    }

    @Test("TOP of a message with no empty line sends all of it")
    func topWithoutBody() {
        #expect(Self.stuffed("H: 1\r\nH: 2\r\n", bodyLines: 0) == "H: 1\r\nH: 2\r\n.\r\n")
    }

    @Test("RETR of a stored message with bare LFs and dot lines, through the session: size, bytes, and unstuffed back")
    func throughSession() {
        let raw = "Subject: Dots\n\n.\n..two\nend"
        let store = MailStore()
        store.deliver(Data(raw.utf8), envelope: MailEnvelope(sender: "", recipients: ["dana@example.net"], origin: .seed(path: "d.eml")))
        var dialogue = POP3TestDialogue(store: store)
        dialogue.send("USER dana@example.net\r\nPASS x\r\n")
        let answer = dialogue.send("RETR 1\r\n")
        let size = raw.utf8.count + 4
        #expect(answer == "+OK \(size) octets\r\nSubject: Dots\r\n\r\n..\r\n...two\r\nend\r\n.\r\n")
        #expect(Self.unstuffed(String(answer.dropFirst("+OK \(size) octets\r\n".count))) == "Subject: Dots\r\n\r\n.\r\n..two\r\nend\r\n")
    }
}
