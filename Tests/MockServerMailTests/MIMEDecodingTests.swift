import Foundation
import MockServerMail
import Testing

/// The decoders: base64, quoted-printable, RFC 2047 words, charsets, RFC 2231 parameters, addresses, dates.
@Suite("MIME decoding")
struct MIMEDecodingTests {
    static func base64(_ text: String) -> [UInt8] { Array(text.utf8).withUnsafeBytes { MIMEBase64.decode($0) } }
    static func qp(_ text: String, header: Bool = false) -> String {
        String(decoding: Array(text.utf8).withUnsafeBytes { MIMEQuotedPrintable.decode($0, header: header) }, as: UTF8.self)
    }

    @Test("base64: line breaks and junk are skipped, missing padding is forgiven, data after the padding ends it")
    func base64() {
        #expect(Self.base64("aGVs\r\nbG8=") == Array("hello".utf8))
        #expect(Self.base64("aGV!!sb*G8") == Array("hello".utf8))
        #expect(Self.base64("aGVsbA") == Array("hell".utf8))
        #expect(Self.base64("aGk=aGVsbG8=") == Array("hi".utf8))
        // A single character left over gives nothing.
        #expect(Self.base64("aGVsbG8=a") == Array("hello".utf8))
        #expect(Self.base64("a") == [])
        #expect(Self.base64("") == [])
    }

    @Test("quoted-printable: soft breaks (CRLF and LF), escapes in either case, bad escapes as written, _ only in headers")
    func quotedPrintable() {
        #expect(Self.qp("soft=\r\nbreak and=\nLF") == "softbreak andLF")
        #expect(Self.qp("=C3=A9=c3=a9") == "éé")
        #expect(Self.qp("a=ZZb =4 =") == "a=ZZb =4 ")
        #expect(Self.qp("a==b") == "a=b")
        #expect(Self.qp("a_b") == "a_b")
        #expect(Self.qp("a_b=5F", header: true) == "a b_")
    }

    @Test("RFC 2047: B and Q words in several charsets; adjacent words join; text around them stays")
    func encodedWords() {
        #expect(MIMEEncodedWords.decode("=?UTF-8?B?SsO8cmdlbg==?=") == "Jürgen")
        #expect(MIMEEncodedWords.decode("=?iso-8859-1?q?Caf=E9?= au lait") == "Café au lait")
        #expect(MIMEEncodedWords.decode("=?utf-8?q?a?= \t =?utf-8?q?b?=") == "ab")
        #expect(MIMEEncodedWords.decode("x =?utf-8?q?a?= y") == "x a y")
        #expect(MIMEEncodedWords.decode("=?windows-1252?Q?=93q=94?=") == "\u{201C}q\u{201D}")
        #expect(MIMEEncodedWords.decode("=?koi8-r?B?7cHSydE=?=") == "Мария")
        #expect(MIMEEncodedWords.decode("=?iso-8859-15?q?=A4?=") == "€")
        #expect(MIMEEncodedWords.decode("=?utf-8*en?q?hi?=") == "hi")
    }

    @Test("RFC 2047: a malformed word stays as written", arguments: [
        "=?utf-8?x?abc?=", "=?utf-8?q?no end", "=?utf-8?b?!!!!?=", "=?utf-8?b?a?=", "=??q?a?=", "=?utf-8?q?a b?=", "plain =? text",
    ])
    func badEncodedWords(text: String) {
        #expect(MIMEEncodedWords.decode(text) == text)
    }

    @Test("charsets: bad UTF-8 becomes U+FFFD; an unknown charset reads as UTF-8, else Latin-1; undefined bytes become U+FFFD")
    func charsets() {
        #expect(MIMECharset.decode([0x61, 0xC3, 0x28], charset: "utf-8") == "a\u{FFFD}(")
        #expect(MIMECharset.decode(Array("é".utf8), charset: "x-unknown") == "é")
        #expect(MIMECharset.decode([0xE9], charset: "x-unknown") == "é")
        #expect(MIMECharset.decode([0xE9], charset: nil) == "é")
        #expect(MIMECharset.decode([0x81, 0x80], charset: "cp1252") == "\u{FFFD}€")
        #expect(MIMECharset.decode([0xA3], charset: "ISO_8859-2") == "Ł")
        #expect(MIMECharset.decode([0xE9], charset: "latin1") == "é")
        for name in ["iso-8859-3", "iso-8859-4", "iso-8859-5", "iso-8859-6", "iso-8859-7", "iso-8859-8", "iso-8859-9", "iso-8859-10",
                     "iso-8859-11", "iso-8859-13", "iso-8859-14", "iso-8859-15", "iso-8859-16"] + (1250...1258).map({ "windows-\($0)" }) {
            #expect(MIMECharset.isKnown(name), "\(name)")
        }
    }

    @Test("parameters: tokens, quoted strings with escapes, comments, case-insensitive names")
    func parameters() {
        let value = MIMEParameterizedValue(#"Multipart/Mixed (a comment); BOUNDARY="a\"b;c" ; charset = utf-8"#)
        #expect(value.value == "multipart/mixed")
        #expect(value.parameters["boundary"] == #"a"b;c"#)
        #expect(value.parameters["charset"] == "utf-8")
    }

    @Test("RFC 2231: continuations in number order, charset and language, plain and extended sections mixed")
    func rfc2231() {
        let value = MIMEParameterizedValue("attachment; filename*1*=t%C3%A9; filename*0*=utf-8'fr'%C3%89; filename*2=\" 2026.txt\"")
        #expect(value.parameters["filename"] == "Été 2026.txt")
        #expect(MIMEParameterizedValue("inline; name*=iso-8859-1''caf%E9").parameters["name"] == "café")
        // The extended form wins over the plain one.
        #expect(MIMEParameterizedValue("attachment; filename=plain.txt; filename*=utf-8''%E2%82%AC.txt").parameters["filename"] == "€.txt")
        // An RFC 2047 word in a plain value is decoded, not in a boundary.
        #expect(MIMEParameterizedValue(#"a; name="=?utf-8?q?Gr=C3=BCn?=""#).parameters["name"] == "Grün")
        #expect(MIMEParameterizedValue(#"multipart/mixed; boundary="=?x?q?y?=""#).parameters["boundary"] == "=?x?q?y?=")
    }

    @Test("addresses: names, quoted strings, comments, groups, routes, bare addresses")
    func addresses() {
        let list = MIMEAddressList.parse(#"Team: "Doe, Jane" <jane@example.com>, bob@example.com (Bob);, Empty:;, <@relay.example:carl@example.com>, "#
            + #"=?utf-8?q?J=C3=BCrgen?= <j@example.de>, "quoted local"@example.com"#)
        #expect(list.map(\.name) == ["Doe, Jane", "", "", "Jürgen", ""])
        #expect(list.map(\.address) == ["jane@example.com", "bob@example.com", "carl@example.com", "j@example.de", #""quoted local"@example.com"#])
        #expect(MIMEAddressList.parse("").isEmpty)
        #expect(MIMEAddressList.parse("undisclosed-recipients:;").isEmpty)
        #expect(MailMessage.Address(name: "A", address: "a@x").description == "A <a@x>")
    }

    @Test("dates: RFC 5322 with and without the day and seconds, numeric and named zones, two-digit years")
    func dates() {
        let expected = Date(timeIntervalSince1970: 1_795_944_900)  // 2026-11-29 09:35:00 UTC
        #expect(MIMEDate.parse("Sun, 29 Nov 2026 10:35:00 +0100") == expected)
        #expect(MIMEDate.parse("29 Nov 2026 09:35 GMT") == expected)
        #expect(MIMEDate.parse("Sun, 29 Nov 26 04:35:00 EST") == expected)
        #expect(MIMEDate.parse("yesterday") == nil)
        #expect(MIMEDate.parse("32 Nov 2026 10:00:00 +0000") == nil)
        // A year that would overflow the day count is no date (it trapped before the year was bounded).
        #expect(MIMEDate.parse("1 Jan 9223372036854775807 10:00 +0000") == nil)
    }
}
