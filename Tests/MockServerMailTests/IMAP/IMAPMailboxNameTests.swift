import MockServerMail
import Testing

/// Mailbox names: modified UTF-7 both ways (RFC 3501 §5.1.3), UTF-8 names, INBOX, and names that
/// would reach outside the store.
@Suite("IMAP mailbox names")
struct IMAPMailboxNameTests {
    static func decoded(_ wire: String) throws(IMAPMailboxNameError) -> IMAPMailboxName {
        try IMAPMailboxName(modifiedUTF7: Array(wire.utf8))
    }

    @Test("RFC 3501's example decodes and encodes back")
    func rfcExample() throws {
        let name = try Self.decoded("~peter/mail/&U,BTFw-/&ZeVnLIqe-")
        #expect(name.name == "~peter/mail/\u{53F0}\u{5317}/\u{65E5}\u{672C}\u{8A9E}")
        #expect(name.segments.count == 4)
        #expect(name.modifiedUTF7 == "~peter/mail/&U,BTFw-/&ZeVnLIqe-")
    }

    @Test("& is &-, and other printable ASCII stands for itself")
    func ampersand() throws {
        #expect(try Self.decoded("Tom &- Jerry").name == "Tom & Jerry")
        #expect(try IMAPMailboxName("A&B").modifiedUTF7 == "A&-B")
        #expect(try IMAPMailboxName("Entw\u{FC}rfe").modifiedUTF7 == "Entw&APw-rfe")
        #expect(try IMAPMailboxName("\u{1F600}").modifiedUTF7 == "&2D3eAA-")
        #expect(try Self.decoded("&2D3eAA-").name == "\u{1F600}")
    }

    @Test("INBOX in any case is INBOX, also as the first level")
    func inbox() throws {
        #expect(try Self.decoded("inbox").isInbox)
        #expect(try Self.decoded("InBoX/Sub").name == "INBOX/Sub")
        #expect(try Self.decoded("Sub/inbox").name == "Sub/inbox")
        #expect(try Self.decoded("INBOXES").name == "INBOXES")
    }

    @Test("invalid modified UTF-7 is refused with the reason", arguments: [
        ("&", IMAPMailboxNameError.invalidModifiedBase64(position: 0)),
        ("a&U,BTFw", .invalidModifiedBase64(position: 1)),
        ("&U=BTFw-", .invalidModifiedBase64(position: 0)),
        ("&U/BTFw-", .invalidModifiedBase64(position: 0)),
        ("&AGE-", .encodedPrintableASCII(position: 0)),
        ("&ACY-", .encodedPrintableASCII(position: 0)),
        ("&2D0-", .unpairedSurrogate(position: 0)),
        ("&3gA-", .unpairedSurrogate(position: 0)),
        ("&2D3YPQ-", .unpairedSurrogate(position: 0)),
        ("&U,BTF-", .nonCanonical(position: 0)),
        ("&U,BTFx-", .nonCanonical(position: 0)),
        ("&U,A-&U,A-", .nonCanonical(position: 5)),
        ("&A-", .nonCanonical(position: 0)),
        ("caf\u{E9}", .nonASCII(byte: 0xC3, position: 3)),
        ("a\tb", .nonASCII(byte: 0x09, position: 1)),
    ])
    func invalidModifiedUTF7(wire: String, error: IMAPMailboxNameError) {
        #expect(throws: error) { try Self.decoded(wire) }
    }

    @Test("names that would leave the store are refused", arguments: [
        ("", IMAPMailboxNameError.empty), ("/etc", .emptySegment), ("a//b", .emptySegment), ("a/", .emptySegment),
        ("..", .relativeSegment("..")), ("a/../b", .relativeSegment("..")), ("./a", .relativeSegment(".")),
        ("a\u{0}b", .controlCharacter(0)), ("a\u{7F}", .controlCharacter(0x7F)), ("a\u{85}", .controlCharacter(0x85)),
    ])
    func escapingNames(name: String, error: IMAPMailboxNameError) {
        #expect(throws: error) { try IMAPMailboxName(name) }
    }

    @Test("control characters hidden in modified base64 are refused too")
    func encodedControl() {
        #expect(throws: IMAPMailboxNameError.controlCharacter(0)) { try Self.decoded("a&AAA-b") }
        #expect(throws: IMAPMailboxNameError.controlCharacter(0x0A)) { try Self.decoded("&AAo-") }
    }

    @Test("UTF-8 names (UTF8=ACCEPT) are checked, and bad UTF-8 is refused")
    func utf8Names() throws {
        #expect(try IMAPMailboxName(utf8: Array("Entw\u{FC}rfe".utf8)).name == "Entw\u{FC}rfe")
        #expect(throws: IMAPMailboxNameError.invalidUTF8) { try IMAPMailboxName(utf8: [0x61, 0xC3]) }
        #expect(throws: IMAPMailboxNameError.invalidUTF8) { try IMAPMailboxName(utf8: [0xED, 0xA0, 0x80]) }
        #expect(throws: IMAPMailboxNameError.relativeSegment("..")) { try IMAPMailboxName(utf8: Array("../x".utf8)) }
    }

    @Test("names longer than the limit are refused")
    func tooLong() {
        let long = String(repeating: "a", count: IMAPMailboxName.maximumLength + 1)
        #expect(throws: IMAPMailboxNameError.tooLong(length: long.utf8.count)) { try IMAPMailboxName(long) }
        #expect(throws: IMAPMailboxNameError.tooLong(length: long.utf8.count)) { try Self.decoded(long) }
    }

    @Test("random Unicode names round-trip through modified UTF-7")
    func randomRoundTrip() throws {
        var generator = SystemRandomNumberGenerator()
        let pools: [ClosedRange<UInt32>] = [
            0x20...0x7E, 0xA0...0x2FF, 0x4E00...0x9FFF, 0xE000...0xFFFD, 0x1F300...0x1FAFF,
        ]
        for _ in 0..<500 {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 1...12, using: &generator) {
                let pool = pools.randomElement(using: &generator)!
                scalars.append(Unicode.Scalar(UInt32.random(in: pool, using: &generator))!)
            }
            let text = String(scalars)
            guard let name = try? IMAPMailboxName(text) else { continue }
            let wire = name.modifiedUTF7
            #expect(wire.utf8.allSatisfy { (0x20...0x7E).contains($0) }, "\(wire)")
            #expect(try Self.decoded(wire) == name, "\(text) as \(wire)")
        }
    }
}
