import Foundation
@testable import MockServerMail
import Testing

/// Writing FETCH content items of small messages made for the edge cases: partials, header fields,
/// missing parts, line ends, failures, and the envelope's address forms.
@Suite("IMAP FETCH content")
struct IMAPMessageContentTests {
    static let plain = Data("""
        From: A <a@example.com>\r
        To: b@example.com\r
        subject: Hello\r
        X-Folded: one\r
        \ttwo\r
        \r
        Body line.\r

        """.utf8)

    /// What `attribute` writes for `raw`, as text, or the failure.
    static func write(_ attribute: IMAPFetchAttribute, _ raw: Data, limits: MIMELimits = MIMELimits()) -> Result<String, IMAPFetchFailure> {
        var output = IMAPOutput()
        output.text("x")
        if let failure = IMAPMessageContent().write(attribute, raw: raw, summary: IMAPMessageSummary(raw: raw, limits: limits), to: &output) {
            return output.bytes == Array("x".utf8) ? .failure(failure) : .success("wrote before failing")
        }
        return .success(String(decoding: output.bytes.dropFirst(), as: UTF8.self))
    }

    static func text(_ attribute: IMAPFetchAttribute, _ raw: Data, limits: MIMELimits = MIMELimits()) -> String? {
        try? write(attribute, raw, limits: limits).get()
    }

    static func section(_ part: [Int] = [], _ kind: IMAPSection.Kind? = nil, partial: IMAPPartial? = nil) -> IMAPFetchAttribute {
        .bodySection(IMAPSection(part: part, text: kind), partial: partial, peek: false)
    }

    @Test("Partials are clamped to the section, and echo only their offset")
    func partials() {
        #expect(Self.text(Self.section(partial: IMAPPartial(offset: 0, count: 4)), Self.plain) == "BODY[]<0> {4}\r\nFrom")
        #expect(Self.text(Self.section([], .text, partial: IMAPPartial(offset: 5, count: 100)), Self.plain) == "BODY[TEXT]<5> {7}\r\nline.\r\n")
        #expect(Self.text(Self.section([], .text, partial: IMAPPartial(offset: 12, count: 1)), Self.plain) == "BODY[TEXT]<12> {0}\r\n")
        #expect(Self.text(Self.section([], .text, partial: IMAPPartial(offset: UInt32.max, count: UInt32.max)), Self.plain) == "BODY[TEXT]<4294967295> {0}\r\n")
        #expect(Self.text(Self.section([], .headerFields(["to"]), partial: IMAPPartial(offset: 4, count: 3)), Self.plain) == "BODY[HEADER.FIELDS (TO)]<4> {3}\r\nb@e")
        #expect(Self.text(.binary(part: [1], partial: IMAPPartial(offset: 5, count: 4), peek: true), Self.plain) == "BINARY[1]<5> {4}\r\nline")
    }

    @Test("HEADER.FIELDS matches names in any case, keeps folded lines, ends with the blank line")
    func headerFields() {
        #expect(Self.text(Self.section([], .headerFields(["SUBJECT", "x-folded"])), Self.plain)
                == "BODY[HEADER.FIELDS (SUBJECT X-FOLDED)] {39}\r\nsubject: Hello\r\nX-Folded: one\r\n\ttwo\r\n\r\n")
        #expect(Self.text(Self.section([], .headerFieldsNot(["From", "to", "SUBJECT"])), Self.plain)
                == "BODY[HEADER.FIELDS.NOT (FROM TO SUBJECT)] {23}\r\nX-Folded: one\r\n\ttwo\r\n\r\n")
        #expect(Self.text(Self.section([], .headerFields(["Nope"])), Self.plain) == "BODY[HEADER.FIELDS (NOPE)] {2}\r\n\r\n")
    }

    @Test("Whole message, header and text, and the RFC822 forms")
    func wholeAndRFC822() {
        let size = Self.plain.count
        #expect(Self.text(.rfc822Size, Self.plain) == "RFC822.SIZE \(size)")
        #expect(Self.text(.rfc822, Self.plain) == "RFC822 {\(size)}\r\n" + String(decoding: Self.plain, as: UTF8.self))
        #expect(Self.text(.rfc822Header, Self.plain)?.hasPrefix("RFC822.HEADER {83}\r\nFrom: A") == true)
        #expect(Self.text(.rfc822Header, Self.plain)?.hasSuffix("two\r\n\r\n") == true)
        #expect(Self.text(.rfc822Text, Self.plain) == "RFC822.TEXT {12}\r\nBody line.\r\n")
        #expect(Self.text(Self.section([1]), Self.plain) == "BODY[1] {12}\r\nBody line.\r\n")
    }

    @Test("A part that does not exist is the empty string, as Dovecot answers")
    func missingParts() {
        for part in [[2], [1, 1], [1, 2], [7, 7, 7]] {
            #expect(Self.text(Self.section(part), Self.plain) == "BODY[\(part.map(String.init).joined(separator: "."))] {0}\r\n")
        }
        #expect(Self.text(Self.section([1], .header), Self.plain) == "BODY[1.HEADER] {0}\r\n")
        #expect(Self.text(Self.section([3], .mime), Self.plain) == "BODY[3.MIME] {0}\r\n")
        #expect(Self.text(.binary(part: [2], partial: nil, peek: false), Self.plain) == "BINARY[2] {0}\r\n")
        #expect(Self.text(.binarySize(part: [2]), Self.plain) == "BINARY.SIZE[2] 0")
    }

    @Test("Bare LF line ends: sections are found the same way")
    func bareLF() {
        let raw = Data("Subject: LF\nX-A: 1\n\nText\n".utf8)
        #expect(Self.text(Self.section([], .header), raw) == "BODY[HEADER] {20}\r\nSubject: LF\nX-A: 1\n\n")
        #expect(Self.text(Self.section([], .text), raw) == "BODY[TEXT] {5}\r\nText\n")
        #expect(Self.text(Self.section([], .headerFields(["x-a"])), raw) == "BODY[HEADER.FIELDS (X-A)] {10}\r\nX-A: 1\r\n\r\n")
    }

    @Test("A message that is itself message/rfc822: part 1 is the message it carries")
    func topLevelRFC822() {
        let raw = Data("Content-Type: message/rfc822\r\n\r\nSubject: Inner\r\n\r\nInner body\r\n".utf8)
        #expect(Self.text(Self.section([1], .header), raw) == "BODY[1.HEADER] {18}\r\nSubject: Inner\r\n\r\n")
        #expect(Self.text(Self.section([1], .text), raw) == "BODY[1.TEXT] {12}\r\nInner body\r\n")
        #expect(Self.text(Self.section([1, 1]), raw) == "BODY[1.1] {12}\r\nInner body\r\n")
        #expect(Self.text(.body, raw) == """
            BODY ("message" "rfc822" NIL NIL NIL "7bit" 30 (NIL "Inner" NIL NIL NIL NIL NIL NIL NIL NIL) \
            ("text" "plain" ("charset" "us-ascii") NIL NIL "7bit" 12 1) 3)
            """)
    }

    @Test("BINARY decodes base64 and quoted-printable, and refuses an unknown encoding without writing")
    func binary() {
        let raw = Data("""
            Content-Type: multipart/mixed; boundary=b\r
            \r
            --b\r
            Content-Transfer-Encoding: Quoted-Printable\r
            \r
            caf=C3=A9\r
            --b\r
            Content-Transfer-Encoding: x-gzip64\r
            \r
            H4sI\r
            --b--\r

            """.utf8)
        #expect(Self.text(.binary(part: [1], partial: nil, peek: false), raw) == "BINARY[1] {5}\r\ncafé")
        #expect(Self.text(.binarySize(part: [1]), raw) == "BINARY.SIZE[1] 5")
        #expect(Self.text(Self.section([1]), raw) == "BODY[1] {9}\r\ncaf=C3=A9")
        #expect(Self.write(.binary(part: [2], partial: nil, peek: false), raw) == .failure(.unknownTransferEncoding(part: [2], encoding: "x-gzip64")))
        #expect(Self.write(.binarySize(part: [2]), raw) == .failure(.unknownTransferEncoding(part: [2], encoding: "x-gzip64")))
        #expect(IMAPFetchFailure.unknownTransferEncoding(part: [2], encoding: "x-gzip64").code == "UNKNOWN-CTE")
        #expect(Self.text(Self.section([2]), raw) == "BODY[2] {4}\r\nH4sI")
    }

    @Test("Items the session answers are refused as a defect, without writing")
    func sessionItems() {
        for attribute in [IMAPFetchAttribute.uid, .flags, .internalDate, .modSeq] {
            #expect(Self.write(attribute, Self.plain) == .failure(.notMessageContent(attribute)))
        }
    }

    @Test("A multipart the nesting limit left unopened holds one empty text part")
    func nestingLimit() {
        let raw = Data("Content-Type: multipart/mixed; boundary=o\r\n\r\n--o\r\nContent-Type: multipart/alternative; boundary=i\r\n\r\n--i\r\n\r\nx\r\n--i--\r\n--o--\r\n".utf8)
        #expect(Self.text(.body, raw, limits: MIMELimits(maximumDepth: 1))
                == "BODY (((\"text\" \"plain\" (\"charset\" \"us-ascii\") NIL NIL \"7bit\" 0 0) \"alternative\") \"mixed\")")
        #expect(Self.text(.body, raw)
                == "BODY (((\"text\" \"plain\" (\"charset\" \"us-ascii\") NIL NIL \"7bit\" 1 0) \"alternative\") \"mixed\")")
    }

    @Test("ENVELOPE address forms: groups, routes, comments, missing parts, 8-bit names")
    func addresses() {
        func envelopeTo(_ value: String) -> String {
            var output = IMAPOutput()
            let list = IMAPAddressListReader.addresses(Array(value.utf8))
            for address in list { address.write(to: &output) }
            return String(decoding: output.bytes, as: UTF8.self)
        }
        #expect(envelopeTo("A Group: x@a.example, \"Q\" <y@b.example>; z@c.example")
                == "(NIL NIL \"A Group\" NIL)(NIL NIL \"x\" \"a.example\")(\"Q\" NIL \"y\" \"b.example\")(NIL NIL NIL NIL)(NIL NIL \"z\" \"c.example\")")
        #expect(envelopeTo("Unclosed: a@b") == "(NIL NIL \"Unclosed\" NIL)(NIL NIL \"a\" \"b\")(NIL NIL NIL NIL)")
        #expect(envelopeTo("<@r1.example,@r2.example:u@h.example>") == "(NIL \"@r1.example,@r2.example\" \"u\" \"h.example\")")
        #expect(envelopeTo("u@h (Nested (comment) name)") == "(\"Nested (comment) name\" NIL \"u\" \"h\")")
        #expect(envelopeTo("<>, @h, local, \"Only\"") == """
            (NIL NIL "MISSING_MAILBOX" "MISSING_DOMAIN")(NIL NIL "MISSING_MAILBOX" "h")\
            (NIL NIL "local" "MISSING_DOMAIN")("Only" NIL "MISSING_MAILBOX" "MISSING_DOMAIN")
            """)
        #expect(envelopeTo("J\u{F6}rg <j@h>") == "({5}\r\nJ\u{F6}rg NIL \"j\" \"h\")")
        #expect(envelopeTo(" , ,") == "")
    }

    @Test("ENVELOPE: sender and reply-to repeat from; absent is NIL, empty is \"\"")
    func envelopeDefaults() {
        let raw = Data("From: a@b\r\nSender:\r\nSubject:\r\nIn-Reply-To:   <x@y>  \r\n\r\n".utf8)
        #expect(Self.text(.envelope, raw) == """
            ENVELOPE (NIL "" ((NIL NIL "a" "b")) ((NIL NIL "a" "b")) ((NIL NIL "a" "b")) NIL NIL NIL "<x@y>" NIL)
            """)
        #expect(Self.text(.envelope, Data()) == "ENVELOPE (NIL NIL NIL NIL NIL NIL NIL NIL NIL NIL)")
        #expect(Self.text(.bodyStructure, Data()) == "BODYSTRUCTURE (\"text\" \"plain\" (\"charset\" \"us-ascii\") NIL NIL \"7bit\" 0 0 NIL NIL NIL NIL)")
    }

    @Test("A Data slice that does not start at 0 reads as its copy")
    func dataSlice() {
        let padded = Data("xxxx".utf8) + Self.plain
        let slice = padded[4...]
        #expect(slice.startIndex == 4)
        for attribute in [IMAPFetchAttribute.rfc822, .envelope, .bodyStructure, Self.section([], .headerFields(["to"])),
                          Self.section([1], partial: IMAPPartial(offset: 1, count: 4)), .binary(part: [1], partial: nil, peek: true)] {
            #expect(Self.text(attribute, slice) == Self.text(attribute, Self.plain))
        }
    }

    @Test("A summary of a parsed MailMessage is the summary of its bytes")
    func fromMessage() throws {
        let raw = try IMAPFetchDovecotTests.message("41-nested-rfc822.eml")
        let fromMessage = IMAPMessageSummary(message: MailMessage(raw)), fromBytes = IMAPMessageSummary(raw: raw)
        #expect(fromMessage.envelope == fromBytes.envelope)
        #expect(fromMessage.body == fromBytes.body)
        #expect(fromMessage.bodyStructure == fromBytes.bodyStructure)
        #expect(fromMessage.size == fromBytes.size)
        #expect(fromMessage.tree.parts.count == 12 && fromBytes.tree.parts.count == 12)
    }
}
