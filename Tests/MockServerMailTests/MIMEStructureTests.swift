import Foundation
import MockServerMail
import Testing

/// A message's structure: boundaries, part numbers, bodies and attachments, line ends.
@Suite("MIME structure")
struct MIMEStructureTests {
    static func message(_ text: String, lineEnd: String = "\r\n", limits: MIMELimits = MIMELimits()) -> MailMessage {
        MailMessage(Data(text.replacingOccurrences(of: "\n", with: lineEnd).utf8), limits: limits)
    }

    static let nested = """
        Subject: nested
        Content-Type: multipart/mixed; boundary=outer

        preamble
        --outer
        Content-Type: multipart/alternative; boundary=outer-alt

        --outer-alt
        Content-Type: text/plain; charset=utf-8

        plain
        --outer-alt
        Content-Type: text/html; charset=utf-8

        <p>html</p>
        --outer-alt--
        --outer
        Content-Type: message/rfc822

        Subject: inner
        Content-Type: multipart/mixed; boundary=in

        --in
        Content-Type: text/plain

        inner text
        --in
        Content-Type: image/png
        Content-Transfer-Encoding: base64

        iVBORw==
        --in--
        --outer
        Content-Type: application/pdf; name=a.pdf
        Content-Disposition: attachment
        Content-Transfer-Encoding: base64

        JVBERg==
        --outer--
        epilogue
        """

    @Test("parts are numbered as IMAP numbers sections; a boundary that is a prefix of another matches only itself", arguments: ["\r\n", "\n"])
    func partNumbers(lineEnd: String) {
        let message = Self.message(Self.nested, lineEnd: lineEnd)
        #expect(message.text == "plain")
        #expect(message.html == "<p>html</p>")
        #expect(message.textPartID == "1.1" && message.htmlPartID == "1.2")
        #expect(message.attachments.map(\.partID) == ["2", "3"])
        #expect(message.attachments.map(\.contentType) == ["message/rfc822", "application/pdf"])
        #expect(message.attachments[1].data == Data("%PDF".utf8))
        #expect(message.attachments[1].fileName == "a.pdf")
        // The attached message's parts: 2.1 and 2.2.
        let sections = message.tree.parts.map(\.section)
        #expect(sections.contains("2.1") && sections.contains("2.2"))
        #expect(message.content(ofPart: "2.2") == Data([0x89, 0x50, 0x4E, 0x47]))
        #expect(message.content(ofPart: "2.1") == Data("inner text".utf8))
        #expect(message.content(ofPart: "9") == nil)
        #expect(!message.isTruncated)
    }

    @Test("CRLF and LF messages give the same fields (an attached message's size is its bytes', line ends included)")
    func lineEnds() {
        let crlf = Self.message(Self.nested), lf = Self.message(Self.nested, lineEnd: "\n")
        #expect(crlf.subject == lf.subject && crlf.text == lf.text && crlf.html == lf.html)
        #expect(crlf.attachments.map(\.partID) == lf.attachments.map(\.partID))
        #expect(crlf.attachments.map(\.data).last == lf.attachments.map(\.data).last)
        #expect(crlf.attachments[0].size - lf.attachments[0].size == 12)
    }

    @Test("a message that is not multipart: its body is part 1; an attachment of one part is part 1")
    func singlePart() {
        let text = Self.message("Subject: s\n\nbody\n")
        #expect(text.text == "body\r\n" && text.attachments.isEmpty && text.textPartID == "1")
        let file = Self.message("Content-Type: application/zip\nContent-Transfer-Encoding: base64\n\nUEsDBA==\n")
        #expect(file.text == nil && file.attachments.map(\.partID) == ["1"] && file.attachments.first?.size == 4)
        #expect(Self.message("").subject == "" && Self.message("").text == "")
    }

    @Test("empty parts, a missing close boundary, and a part without fields (text/plain)")
    func oddParts() {
        let message = Self.message("Content-Type: multipart/mixed; boundary=b\n\n--b\n--b\n\nno fields\n--b\nContent-Type: image/gif\n\nGIF")
        #expect(message.tree.parts.count == 4)
        #expect(message.text == "")
        #expect(message.attachments.map(\.contentType) == ["text/plain", "image/gif"])
        #expect(message.attachments.map(\.size) == [9, 3])
    }

    @Test("bad base64 in a part decodes what it can; the raw bytes stay exact")
    func badBase64() {
        let text = "Content-Type: application/octet-stream\nContent-Transfer-Encoding: base64\n\n!!aGVs\n#bG8=trailing junk\n"
        let message = Self.message(text)
        #expect(message.attachments.first?.data == Data("hello".utf8))
        #expect(message.raw == Data(text.replacingOccurrences(of: "\n", with: "\r\n").utf8))
    }

    @Test("a text part marked as an attachment is not the body; related's root is its start part")
    func bodyChoice() {
        let message = Self.message("""
            Content-Type: multipart/mixed; boundary=m

            --m
            Content-Type: text/plain
            Content-Disposition: attachment; filename=log.txt

            log
            --m
            Content-Type: multipart/related; boundary=r; start="<b>"

            --r
            Content-Type: text/html
            Content-ID: <a>

            not the root
            --r
            Content-Type: text/html
            Content-ID: <b>

            root
            --r--
            --m
            Content-Type: text/plain

            body
            --m--
            """)
        #expect(message.text == "body")
        #expect(message.html == "root")
        #expect(message.attachments.map(\.fileName) == ["log.txt", nil])
        #expect(message.attachments.map(\.contentID) == [nil, "a"])
    }

    @Test("the message's fields: headers decoded, addresses, message ID, date")
    func fields() {
        let message = Self.message("""
            From: =?utf-8?q?Ren=C3=A9e?= <renee@example.fr>
            To: a@example.com
            To: b@example.com
            Bcc: hidden@example.com
            Message-ID: <id@example.fr>
            Date: Sun, 29 Nov 2026 10:35:00 +0100
            X-Custom: =?utf-8?b?w6k=?=

            """)
        #expect(message.from == [MailMessage.Address(name: "Renée", address: "renee@example.fr")])
        #expect(message.to.map(\.address) == ["a@example.com", "b@example.com"])
        #expect(message.bcc.map(\.address) == ["hidden@example.com"])
        #expect(message.cc.isEmpty)
        #expect(message.messageID == "id@example.fr")
        #expect(message.date == Date(timeIntervalSince1970: 1_795_944_900))
        #expect(message.header("x-custom") == "é")
        #expect(message.headerValues("TO") == ["a@example.com", "b@example.com"])
        #expect(message.headerNames == ["From", "To", "To", "Bcc", "Message-ID", "Date", "X-Custom"])
    }
}
