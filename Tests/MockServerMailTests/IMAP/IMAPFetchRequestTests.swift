import MockServerMail
import Testing

/// Reading a FETCH's items and modifiers (RFC 3501 §6.4.5, RFC 3516, RFC 7162) from the values the
/// command reader framed.
@Suite("IMAP FETCH request")
struct IMAPFetchRequestTests {
    /// The request of `FETCH 1 <text>`, read by the command reader first.
    static func parse(_ text: String) -> Result<IMAPFetchRequest, IMAPFetchError>? {
        var reader = IMAPCommandReader()
        var input = Array("A1 FETCH 1 \(text)\r\n".utf8)[...]
        guard case .command(let command)? = reader.read(&input) else { return nil }
        return IMAPFetchRequest.parse(command.arguments.dropFirst())
    }

    static func attributes(_ text: String) -> [IMAPFetchAttribute]? {
        guard case .success(let request)? = parse(text) else { return nil }
        return request.attributes
    }

    static func error(_ text: String) -> IMAPFetchError? {
        guard case .failure(let error)? = parse(text) else { return nil }
        return error
    }

    @Test("Macros expand as RFC 3501 §6.4.5 says, alone only")
    func macros() {
        #expect(Self.attributes("ALL") == [.flags, .internalDate, .rfc822Size, .envelope])
        #expect(Self.attributes("fast") == [.flags, .internalDate, .rfc822Size])
        #expect(Self.attributes("FULL") == [.flags, .internalDate, .rfc822Size, .envelope, .body])
        #expect(Self.error("(FLAGS ALL)") == .unknownItem("ALL"))
    }

    @Test("Single items and lists, any case, each once")
    func items() {
        #expect(Self.attributes("flags") == [.flags])
        #expect(Self.attributes("(UID RFC822.SIZE FLAGS INTERNALDATE ENVELOPE BODY BODYSTRUCTURE MODSEQ uid)")
                == [.uid, .rfc822Size, .flags, .internalDate, .envelope, .body, .bodyStructure, .modSeq])
        #expect(Self.attributes("(RFC822 RFC822.HEADER RFC822.TEXT)") == [.rfc822, .rfc822Header, .rfc822Text])
        #expect(Self.attributes("BODY[]") == [.bodySection(IMAPSection(), partial: nil, peek: false)])
    }

    @Test("Sections: part numbers, HEADER, HEADER.FIELDS(.NOT), TEXT, MIME, partials")
    func sections() {
        #expect(Self.attributes("BODY.PEEK[1.2.3]") == [.bodySection(IMAPSection(part: [1, 2, 3]), partial: nil, peek: true)])
        #expect(Self.attributes("BODY[2]<0.100>") == [.bodySection(IMAPSection(part: [2]), partial: IMAPPartial(offset: 0, count: 100), peek: false)])
        #expect(Self.attributes("body[header]") == [.bodySection(IMAPSection(text: .header), partial: nil, peek: false)])
        #expect(Self.attributes("BODY[3.TEXT]") == [.bodySection(IMAPSection(part: [3], text: .text), partial: nil, peek: false)])
        #expect(Self.attributes("BODY[1.MIME]") == [.bodySection(IMAPSection(part: [1], text: .mime), partial: nil, peek: false)])
        #expect(Self.attributes("BODY.PEEK[HEADER.FIELDS (From \"To\" {2+}\r\nCc)]")
                == [.bodySection(IMAPSection(text: .headerFields(["From", "To", "Cc"])), partial: nil, peek: true)])
        #expect(Self.attributes("BODY[2.HEADER.FIELDS.NOT (Received)]")
                == [.bodySection(IMAPSection(part: [2], text: .headerFieldsNot(["Received"])), partial: nil, peek: false)])
    }

    @Test("A section is echoed with its field names upper-cased, as Dovecot echoes it")
    func sectionDescription() {
        #expect(IMAPSection().description == "")
        #expect(IMAPSection(part: [1, 2], text: .headerFields(["From", "to"])).description == "1.2.HEADER.FIELDS (FROM TO)")
        #expect(IMAPSection(text: .headerFieldsNot(["x-a"])).description == "HEADER.FIELDS.NOT (X-A)")
        #expect(IMAPSection(part: [4], text: .mime).description == "4.MIME")
        #expect(IMAPSection(part: [3, 1]).description == "3.1")
    }

    @Test("BINARY, BINARY.PEEK and BINARY.SIZE take part numbers only")
    func binary() {
        #expect(Self.attributes("(BINARY[] BINARY.PEEK[1.2]<5.10> BINARY.SIZE[3])")
                == [.binary(part: [], partial: nil, peek: false),
                    .binary(part: [1, 2], partial: IMAPPartial(offset: 5, count: 10), peek: true),
                    .binarySize(part: [3])])
        #expect(Self.error("BINARY[1.HEADER]") == .badSection("1.HEADER", reason: "part number HEADER is not a nonzero 32-bit number"))
        #expect(Self.error("BINARY[TEXT]") != nil)
        #expect(Self.error("BINARY.SIZE[1]<0.10>") == .badPartial("BINARY.SIZE[]"))
    }

    @Test("Malformed items are refused, naming the culprit")
    func refusals() {
        #expect(Self.error("") == .missingItems)
        #expect(Self.error("()") == .emptyItemList)
        #expect(Self.error("FLAGSS") == .unknownItem("FLAGSS"))
        #expect(Self.error("(FLAGS \"ENVELOPE\")") == .unexpectedValue)
        #expect(Self.error("((FLAGS))") == .unexpectedValue)
        #expect(Self.error("BODY[0]") == .badSection("0", reason: "part number 0 is not a nonzero 32-bit number"))
        #expect(Self.error("BODY[4294967296]") != nil)
        #expect(Self.error("BODY[1.]") != nil)
        #expect(Self.error("BODY[MIME]") == .badSection("MIME", reason: "MIME needs part numbers"))
        #expect(Self.error("BODY[HEADER.FIELDS]") == .badSection("HEADER.FIELDS", reason: "HEADER.FIELDS needs a list of field names"))
        #expect(Self.error("BODY[HEADER.FIELDS ()]") != nil)
        #expect(Self.error("BODY[HEADER.FIELDS (\"A B\")]") == .badSection("HEADER.FIELDS (\"A B\")", reason: "invalid header field name"))
        #expect(Self.error("BODY[HEADER.FIELDS (\"Sub:ject\")]") != nil)
        #expect(Self.error("BODY[HEADER (FROM)]") != nil)
        #expect(Self.error("BODY[1.FOO]") == .badSection("1.FOO", reason: "unknown section text FOO"))
        #expect(Self.error("BODY[]<5>") == .badPartial("BODY[]"))
        #expect(Self.error("BODY[" + Array(repeating: "1", count: 65).joined(separator: ".") + "]") != nil)
        #expect(Self.error("FLAGS ENVELOPE") == .trailingArguments)
        #expect(IMAPFetchError.unknownItem("FLAGSS").text == "Unknown FETCH data item FLAGSS.")
    }

    @Test("CHANGEDSINCE and VANISHED modifiers (RFC 7162)")
    func modifiers() throws {
        #expect(try Self.parse("(FLAGS) (CHANGEDSINCE 12345)")?.get()
                == IMAPFetchRequest(attributes: [.flags, .modSeq], changedSince: 12345))
        #expect(try Self.parse("(FLAGS MODSEQ) (changedsince 0 vanished)")?.get()
                == IMAPFetchRequest(attributes: [.flags, .modSeq], changedSince: 0, vanished: true))
        #expect(try Self.parse("FLAGS (VANISHED CHANGEDSINCE 7)")?.get().vanished == true)
        #expect(Self.error("FLAGS (VANISHED)") == .vanishedWithoutChangedSince)
        #expect(Self.error("FLAGS (CHANGEDSINCE)") == .badModifier("CHANGEDSINCE needs a mod-sequence (0 to 2^63-1)"))
        #expect(Self.error("FLAGS (CHANGEDSINCE 9223372036854775808)") != nil)
        #expect(Self.error("FLAGS (CHANGEDSINCE 1 CHANGEDSINCE 2)") == .badModifier("CHANGEDSINCE given twice"))
        #expect(Self.error("FLAGS (PARTIAL 1:5)") == .badModifier("unknown modifier PARTIAL"))
        #expect(Self.error("FLAGS ()") == .trailingArguments)
        #expect(Self.error("FLAGS (CHANGEDSINCE 1) X") == .trailingArguments)
    }

    @Test("Which items set \\Seen and which need the message")
    func seenAndMessage() {
        let seen: [IMAPFetchAttribute] = [.rfc822, .rfc822Text, .bodySection(IMAPSection(), partial: nil, peek: false),
                                          .binary(part: [1], partial: nil, peek: false)]
        let unseen: [IMAPFetchAttribute] = [.uid, .flags, .internalDate, .rfc822Size, .envelope, .body, .bodyStructure, .modSeq,
                                            .rfc822Header, .bodySection(IMAPSection(), partial: nil, peek: true),
                                            .binary(part: [1], partial: nil, peek: true), .binarySize(part: [1])]
        #expect(seen.allSatisfy { $0.setsSeen })
        #expect(!unseen.contains { $0.setsSeen })
        #expect([IMAPFetchAttribute.uid, .flags, .internalDate, .modSeq].allSatisfy { !$0.needsMessage })
        #expect((seen + unseen).filter { $0.needsMessage }.count == seen.count + unseen.count - 4)
        #expect(IMAPFetchRequest(attributes: [.flags, .uid]).needsMessage == false)
        #expect(IMAPFetchRequest(attributes: [.flags, .rfc822Header]).setsSeen == false)
        #expect(IMAPFetchRequest(attributes: [.flags, .rfc822Text]).setsSeen)
    }
}
