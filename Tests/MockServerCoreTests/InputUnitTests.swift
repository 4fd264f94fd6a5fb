import MockServerCore
import Testing

@Suite("InputUnit: bytes kept, text decoded when read")
struct InputUnitTests {
    @Test("valid UTF-8 reads as itself, from bytes or from text")
    func validText() {
        let fromBytes = InputUnit(bytes: Array("RETR café.txt".utf8))
        let fromText = InputUnit("RETR café.txt")
        #expect(fromBytes.text == "RETR café.txt")
        #expect(fromBytes == fromText)
        #expect(fromBytes.hashValue == fromText.hashValue)
        #expect(fromBytes.isValidUTF8)
        #expect(Set([fromBytes, fromText]).count == 1)
    }

    @Test("invalid sequences read as U+FFFD, one for each maximal subpart, and the bytes stay exact")
    func repairedText() {
        // A lone continuation byte, a truncated 3-byte sequence, an overlong "/" (C0 AF).
        let bytes: [UInt8] = [0x41, 0x80, 0x42, 0xE2, 0x82, 0x43, 0xC0, 0xAF]
        let unit = InputUnit(bytes: bytes)
        #expect(unit.text == "A\u{FFFD}B\u{FFFD}C\u{FFFD}\u{FFFD}")
        #expect(unit.bytes == bytes)
        #expect(!unit.isValidUTF8)
        // Another unit with the same text but other bytes is another unit.
        #expect(unit != InputUnit(unit.text))
    }

    @Test("an empty unit and control characters in the description")
    func emptyAndEscaped() {
        #expect(InputUnit(bytes: []).text.isEmpty)
        #expect(InputUnit(bytes: []).isValidUTF8)
        #expect("\(InputUnit("a\tb\r\n"))" == "a\\tb\\r\\n")
    }
}
