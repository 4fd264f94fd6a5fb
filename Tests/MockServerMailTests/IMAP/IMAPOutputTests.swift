@testable import MockServerMail
import Testing

/// The one writer of IMAP response bytes: strings quoted or sent as literals (RFC 9051 §4.3), NIL,
/// astrings, numbers.
@Suite("IMAP output")
struct IMAPOutputTests {
    static func written(_ write: (inout IMAPOutput) -> Void) -> String {
        var output = IMAPOutput()
        write(&output)
        return String(decoding: output.bytes, as: UTF8.self)
    }

    static func bytes(_ write: (inout IMAPOutput) -> Void) -> [UInt8] {
        var output = IMAPOutput()
        write(&output)
        return output.bytes
    }

    @Test("Strings are quoted, with `\"` and `\\` escaped")
    func quoting() {
        #expect(Self.written { $0.string(Array("Sent Items".utf8)) } == "\"Sent Items\"")
        #expect(Self.written { $0.string([UInt8]()) } == "\"\"")
        #expect(Self.written { $0.string(Array("a \"b\" \\c".utf8)) } == "\"a \\\"b\\\" \\\\c\"")
        #expect(Self.written { $0.string(Array("tab\there".utf8)) } == "\"tab\there\"")
    }

    @Test("CR, LF, NUL and 8-bit bytes go as literals; 8-bit is quoted with UTF8=ACCEPT")
    func literalChoice() {
        #expect(Self.written { $0.string(Array("two\r\nlines".utf8)) } == "{10}\r\ntwo\r\nlines")
        #expect(Self.written { $0.string(Array("lf\n".utf8)) } == "{3}\r\nlf\n")
        #expect(Self.written { $0.string(Array("cr\r".utf8)) } == "{3}\r\ncr\r")
        #expect(Self.bytes { $0.string([0x61, 0x00, 0x62]) } == Array("{3}\r\na".utf8) + [0, 0x62])
        #expect(Self.written { $0.string(Array("Grüße".utf8)) } == "{7}\r\nGrüße")
        #expect(Self.written { $0.string(Array("Grüße".utf8), utf8: true) } == "\"Grüße\"")
        // NUL and line ends stay literals even with UTF8=ACCEPT.
        #expect(Self.written { $0.string(Array("ü\r\n".utf8), utf8: true) } == "{4}\r\nü\r\n")
    }

    @Test("Strings longer than 1,024 octets go as literals, as Dovecot sends them")
    func longStrings() {
        let limit = Array(repeating: UInt8(ascii: "a"), count: 1024)
        #expect(Self.written { $0.string(limit) } == "\"" + String(repeating: "a", count: 1024) + "\"")
        #expect(Self.written { $0.string(limit + [0x61]) } == "{1025}\r\n" + String(repeating: "a", count: 1025))
    }

    @Test("nstring: NIL for nil, a string otherwise (the empty one quoted)")
    func nstring() {
        #expect(Self.written { $0.nstring(nil as [UInt8]?) } == "NIL")
        #expect(Self.written { $0.nstring(nil as String?) } == "NIL")
        #expect(Self.written { $0.nstring(Array("NIL".utf8)) } == "\"NIL\"")
        #expect(Self.written { $0.nstring("") } == "\"\"")
        #expect(Self.written { $0.nstring("x\r\ny") } == "{4}\r\nx\r\ny")
    }

    @Test("astring: an atom when the bytes make one, else a string; `]` allowed, NIL quoted")
    func astring() {
        #expect(Self.written { $0.astring(Array("INBOX".utf8)) } == "INBOX")
        #expect(Self.written { $0.astring(Array("[Gmail]/Sent".utf8)) } == "[Gmail]/Sent")
        #expect(Self.written { $0.astring(Array("NIL".utf8)) } == "\"NIL\"")
        #expect(Self.written { $0.astring(Array("nil".utf8)) } == "nil")
        #expect(Self.written { $0.astring([UInt8]()) } == "\"\"")
        for special in ["a b", "a(b", "a)b", "a{b", "a%b", "a*b", "a\"b", "a\\b"] {
            #expect(Self.written { $0.astring(Array(special.utf8)) }.hasPrefix("\""), "\(special)")
        }
        #expect(Self.written { $0.astring(Array("Entwürfe".utf8)) } == "{9}\r\nEntwürfe")
        #expect(Self.written { $0.astring(Array("Entwürfe".utf8), utf8: true) } == "\"Entwürfe\"")
    }

    @Test("Numbers, bytes, text and CRLF are written as they are")
    func plainPieces() {
        #expect(Self.written {
            $0.text("* ")
            $0.number(UInt32.max)
            $0.byte(0x20)
            $0.number(UInt64.max)
            $0.raw(" OK".utf8)
            $0.crlf()
        } == "* 4294967295 18446744073709551615 OK\r\n")
        #expect(Self.written { $0.literal([UInt8]()) } == "{0}\r\n")
        #expect(IMAPOutput(capacity: 100).bytes.isEmpty)
    }
}
