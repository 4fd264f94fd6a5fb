import Foundation
import MockServerMail
import Testing

/// RFC 5322 header sections: folding, line ends, names, where the body starts, the length limit.
@Suite("MIME header sections")
struct MIMEHeaderSectionTests {
    static func section(_ text: String, limit: Int = 65_536) -> MIMEHeaderSection {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { MIMEHeaderSection(reading: $0, in: 0..<bytes.count, maximumLength: limit) }
    }

    @Test("a folded field is unfolded: line breaks go, the white space after them stays", arguments: ["\r\n", "\n"])
    func folding(lineEnd: String) {
        let text = ["Subject: one", " two", "\tthree", "To: a@example.com", "", "body"].joined(separator: lineEnd)
        let headers = Self.section(text)
        #expect(headers["subject"] == "one two\tthree")
        #expect(headers["SUBJECT"] == "one two\tthree")
        #expect(headers.fields.map(\.name) == ["Subject", "To"])
        #expect(headers.bodyStart == text.utf8.count - 4)
    }

    @Test("names are case-insensitive; every field of a name is kept in order; each field's bytes are where it was written")
    func names() {
        let text = "Received: first\r\nreceived: second\r\nRECEIVED: third\r\n\r\n"
        let headers = Self.section(text)
        #expect(headers.values("Received") == ["first", "second", "third"])
        let bytes = Array(text.utf8)
        #expect(headers.fields.map { String(decoding: bytes[$0.range], as: UTF8.self) } == ["Received: first", "received: second", "RECEIVED: third"])
    }

    @Test("the white space after the colon goes; an empty value is empty; a colon in the value stays")
    func values() {
        let headers = Self.section("A:   spaced\nB:\nC: x: y\n\n")
        #expect(headers["a"] == "spaced")
        #expect(headers["b"] == "")
        #expect(headers["c"] == "x: y")
    }

    @Test("a line that is no field ends the section and starts the body; without an empty line the body is empty")
    func missingSeparator() {
        let text = "Subject: x\nthis is body text\nmore\n"
        let headers = Self.section(text)
        #expect(headers.fields.count == 1)
        #expect(headers.bodyStart == "Subject: x\n".utf8.count)
        let only = Self.section("Subject: x\nTo: y")
        #expect(only.fields.count == 2 && only.bodyStart == "Subject: x\nTo: y".utf8.count)
        // A name with a space is no name.
        #expect(Self.section("Bad Name: x\n\n").fields.isEmpty)
    }

    @Test("an mbox From line and a continuation before any field are skipped")
    func leadingLines() {
        let headers = Self.section("From alice@example.com Mon Nov 30 10:00:00 2026\n  stray\nSubject: hi\n\nbody")
        #expect(headers.fields.map(\.name) == ["Subject"])
    }

    @Test("a field longer than the limit is cut at it and marks the section truncated; the next field is whole")
    func lengthLimit() {
        let long = "X-Long: " + String(repeating: "a", count: 100) + "\n " + String(repeating: "b", count: 100)
        let headers = Self.section(long + "\nSubject: short\n\n", limit: 50)
        #expect(headers.isTruncated)
        #expect(headers["x-long"] == String(repeating: "a", count: 42))
        #expect(headers["subject"] == "short")
        #expect(!Self.section(long + "\n\n").isTruncated)
    }

    @Test("8-bit UTF-8 in a header is read as UTF-8; bytes that are not UTF-8 become U+FFFD")
    func eightBit() {
        var bytes = Array("Subject: caf\u{E9} ".utf8)
        bytes += [0xFF, 0x41, 0x0A, 0x0A]
        let headers = bytes.withUnsafeBytes { MIMEHeaderSection(reading: $0, in: 0..<bytes.count, maximumLength: 1_000) }
        #expect(headers["subject"] == "caf\u{E9} \u{FFFD}A")
    }
}
