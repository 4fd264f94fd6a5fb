import MockServerMail
import Testing

/// SEARCH's arguments parsed into keys: every criterion, result options, charsets, and the limits
/// that keep a hostile program bounded.
@Suite("IMAP SEARCH parsing")
struct IMAPSearchParseTests {
    static func key(_ line: String) -> IMAPSearchKey? {
        try? IMAPSearchFixture.search(line).get().key
    }

    static func error(_ line: String, limits: IMAPSearchLimits = .init()) -> IMAPSearchError? {
        guard case .failure(let error) = IMAPSearchFixture.search(line, limits: limits) else { return nil }
        return error
    }

    static func day(_ text: String) -> IMAPSearchDay {
        IMAPSearchDay(imapDate: Array(text.utf8))!
    }

    @Test("RFC 9051's example: FLAGGED SINCE 1-Feb-1994 NOT FROM \"Smith\"")
    func rfcExample() throws {
        let command = try IMAPSearchFixture.search("FLAGGED SINCE 1-Feb-1994 NOT FROM \"Smith\"").get()
        #expect(command.key == .and([.flagged, .since(Self.day("1-Feb-1994")), .not(.from("Smith"))]))
        #expect(command.charset == nil)
        #expect(command.returnOptions == nil)
    }

    @Test("every RFC 3501 key, in any case, with its argument")
    func everyKey() {
        let cases: [(String, IMAPSearchKey)] = [
            ("ALL", .all), ("answered", .answered), ("Deleted", .deleted), ("DRAFT", .draft), ("FLAGGED", .flagged),
            ("SEEN", .seen), ("RECENT", .recent), ("NEW", .new), ("OLD", .old), ("UNANSWERED", .unanswered),
            ("UNDELETED", .undeleted), ("UNDRAFT", .undraft), ("UNFLAGGED", .unflagged), ("UNSEEN", .unseen),
            ("KEYWORD $Junk", .keyword("$Junk")), ("UNKEYWORD NonJunk", .unkeyword("NonJunk")),
            ("BCC b", .bcc("b")), ("CC \"c d\"", .cc("c d")), ("FROM {3}\r\nx y", .from("x y")), ("TO 12", .to("12")),
            ("SUBJECT NIL", .subject("NIL")), ("BODY \"\"", .body("")), ("TEXT \"caf\u{E9}\"", .text("caf\u{E9}")),
            ("HEADER X-Mailer \"\"", .header(field: "X-Mailer", value: "")),
            ("BEFORE 1-Feb-1994", .before(Self.day("1-Feb-1994"))), ("ON \"01-feb-1994\"", .on(Self.day("1-Feb-1994"))),
            ("SENTBEFORE 2-Mar-2000", .sentBefore(Self.day("2-Mar-2000"))), ("SENTON 2-Mar-2000", .sentOn(Self.day("2-Mar-2000"))),
            ("SENTSINCE 2-Mar-2000", .sentSince(Self.day("2-Mar-2000"))),
            ("LARGER 9223372036854775807", .larger(9_223_372_036_854_775_807)), ("SMALLER 0", .smaller(0)),
            ("UID 1:*", .uid(try! IMAPSequenceSet(parsing: "1:*"))), ("UID 7", .uid(try! IMAPSequenceSet(parsing: "7"))),
            ("2,4:*", .sequence(try! IMAPSequenceSet(parsing: "2,4:*"))), ("5", .sequence(try! IMAPSequenceSet(parsing: "5"))),
            ("$", .sequence(.saved)), ("UID $", .uid(.saved)),
            ("MODSEQ 620162338", .modSeq(620_162_338)), ("MODSEQ \"/flags/\\\\draft\" all 0", .modSeq(0)),
            ("NOT SEEN", .not(.seen)), ("OR SEEN FLAGGED", .or([.seen, .flagged])), ("(SEEN FLAGGED)", .and([.seen, .flagged])),
            ("((SEEN))", .seen),
        ]
        for (line, expected) in cases {
            #expect(Self.key(line) == expected, "\(line)")
        }
    }

    @Test("OR chains, nested left or right, are one list of alternatives; 300 of them pass, as in Dovecot")
    func orChains() {
        let expected = IMAPSearchKey.or([.seen, .flagged, .draft, .deleted])
        #expect(Self.key("OR OR OR SEEN FLAGGED DRAFT DELETED") == expected)
        #expect(Self.key("OR SEEN OR FLAGGED OR DRAFT DELETED") == expected)
        #expect(Self.key("OR OR SEEN FLAGGED OR DRAFT DELETED") == expected)
        #expect(Self.key("OR (OR SEEN FLAGGED) NOT DRAFT") == .or([.seen, .flagged, .not(.draft)]))
        let long = String(repeating: "OR ", count: 300) + (1...301).map(String.init).joined(separator: " ")
        guard case .or(let alternatives)? = Self.key(long) else {
            Issue.record("300 ORs refused")
            return
        }
        #expect(alternatives.count == 301)
        let right = String(repeating: "OR 1 ", count: 300) + "2"
        #expect(Self.key(right).map { if case .or(let keys) = $0 { keys.count } else { 0 } } == 301)
    }

    @Test("NOT NOT cancels: 40 NOTs before ALL are ALL, 41 are NOT ALL")
    func notChains() {
        #expect(Self.key(String(repeating: "NOT ", count: 40) + "ALL") == .all)
        #expect(Self.key(String(repeating: "NOT ", count: 41) + "ALL") == .not(.all))
        #expect(Self.error("NOT") == .bad("Missing search key after NOT"))
    }

    @Test("nesting deeper than the limit is BAD; at the limit it passes")
    func depthLimit() {
        func nested(_ depth: Int) -> ArraySlice<IMAPValue> {
            var value = IMAPValue.atom("SEEN")
            for _ in 1..<depth { value = .list([value]) }
            return [value]
        }
        let limits = IMAPSearchLimits(depth: 32)
        #expect((try? IMAPSearchCommand.parse(nested(32), limits: limits).get())?.key == .seen)
        guard case .failure(let error) = IMAPSearchCommand.parse(nested(33), limits: limits) else {
            Issue.record("33 levels accepted")
            return
        }
        #expect(error == .bad("Search criteria nested deeper than 32 levels"))
        // NOT and OR operands nest too (a NOT chain counts once).
        #expect(Self.error("NOT (NOT (SEEN))", limits: IMAPSearchLimits(depth: 3)) != nil)
        #expect(Self.error("NOT NOT NOT (SEEN)", limits: IMAPSearchLimits(depth: 3)) == nil)
        #expect(Self.error("OR (OR SEEN (DRAFT)) ALL", limits: IMAPSearchLimits(depth: 3)) != nil)
    }

    @Test("more keys than the limit is BAD")
    func keyCountLimit() {
        let line = Array(repeating: "SEEN", count: 11).joined(separator: " ")
        #expect(Self.error(line, limits: IMAPSearchLimits(keyCount: 10)) == .bad("More than 10 search keys"))
        #expect(Self.error(String(repeating: "OR ", count: 10) + "SEEN", limits: IMAPSearchLimits(keyCount: 10)) == .bad("More than 10 search keys"))
        #expect(Self.error(Array(repeating: "SEEN", count: 10).joined(separator: " "), limits: IMAPSearchLimits(keyCount: 10)) == nil)
    }

    @Test("numbers past 32 bits (sequence numbers, UIDs) and past 63 bits (sizes, MODSEQ) are BAD")
    func numberBounds() {
        #expect(Self.error("4294967296")?.text.contains("exceeds 4294967295") == true)
        #expect(Self.error("1:4294967296")?.text.contains("exceeds 4294967295") == true)
        #expect(Self.error("UID 1:4294967296")?.text.contains("Invalid UID set") == true)
        #expect(Self.error("UID 99999999999999999999999")?.text.contains("Invalid UID set") == true)
        #expect(Self.error("LARGER 9223372036854775808") == .bad("Invalid number 9223372036854775808 for LARGER (expected 0 to 9223372036854775807)"))
        #expect(Self.error("SMALLER -1") != nil)
        #expect(Self.error("MODSEQ 18446744073709551616") != nil)
        #expect(Self.error("0") != nil)
        #expect(Self.key("4294967295") == .sequence(try! IMAPSequenceSet(parsing: "4294967295")))
    }

    @Test("dates are d-Mon-yyyy, quoted or not, the month in any case; 31-Feb runs into March as in Dovecot")
    func dates() {
        #expect(Self.day("1-Feb-1994") == Self.day("01-FEB-1994"))
        #expect(Self.day("1-Feb-1994").daysSince1970 == 8797)
        #expect(Self.day("1-Jan-1970").daysSince1970 == 0)
        #expect(Self.day("31-Feb-2001") == Self.day("3-Mar-2001"))
        for bad in ["1-Feb-01", "1-Fbr-2001", "32-Jan-2001", "0-Jan-2001", "1 Feb 2001", "1-Feb-2001x", "-Feb-2001", "123-Feb-2001", "1-February-2001"] {
            #expect(IMAPSearchDay(imapDate: Array(bad.utf8)) == nil, "\(bad)")
        }
        #expect(Self.error("SINCE 1-Feb-01") == .bad("Invalid date 1-Feb-01 for SINCE (expected d-Mon-yyyy)"))
        #expect(Self.error("SENTON") == .bad("Missing date for SENTON"))
    }

    @Test("RETURN options: MIN MAX ALL COUNT SAVE in any order, () meaning ALL; others BAD")
    func returnOptions() throws {
        #expect(try IMAPSearchFixture.search("RETURN (MIN MAX) ALL").get().returnOptions == [.min, .max])
        #expect(try IMAPSearchFixture.search("RETURN () ALL").get().returnOptions == .all)
        #expect(try IMAPSearchFixture.search("return (save count all) SEEN").get().returnOptions == [.save, .count, .all])
        #expect(Self.error("RETURN (FOO) ALL") == .bad("Unknown SEARCH return option FOO"))
        #expect(Self.error("RETURN ALL") == .bad("RETURN must be followed by a list of options"))
        let saved = try IMAPSearchFixture.search("RETURN (SAVE MIN) UID $").get()
        #expect(saved.key.usesSavedResult)
        #expect(saved.returnOptions?.saved(from: [3, 4, 5]) == [3])
        #expect(IMAPSearchReturn([.save, .min, .max]).saved(from: [3, 4, 5]) == [3, 5])
        #expect(IMAPSearchReturn([.save, .min, .max]).saved(from: [4]) == [4])
        #expect(IMAPSearchReturn([.save, .count]).saved(from: [3, 4, 5]) == [3, 4, 5])
        #expect(!IMAPSearchReturn.save.answers)
    }

    @Test("CHARSET: UTF-8 and US-ASCII in any spelling; others answered BADCHARSET")
    func charsets() throws {
        #expect(try IMAPSearchFixture.search("CHARSET UTF-8 ALL").get().charset == "UTF-8")
        #expect(try IMAPSearchFixture.search("charset \"us-ascii\" ALL").get().charset == "us-ascii")
        #expect(try IMAPSearchFixture.search("RETURN (COUNT) CHARSET utf8 TEXT x").get().key == .text("x"))
        let error = Self.error("CHARSET ISO-8859-1 TEXT x")
        #expect(error == .badCharset("ISO-8859-1"))
        #expect(error?.text == "[BADCHARSET (UTF-8 US-ASCII)] Unsupported charset ISO-8859-1")
        #expect(Self.error("CHARSET") == .bad("Missing charset after CHARSET"))
        #expect(Self.error("CHARSET UTF-8") == .bad("Missing search criteria"))
    }

    @Test("malformed programs are BAD, the text naming the culprit")
    func malformed() {
        #expect(Self.error("") == .bad("Missing search criteria"))
        #expect(Self.error("()") == .bad("No search keys inside parentheses"))
        #expect(Self.error("FOO") == .bad("Unknown search key FOO"))
        #expect(Self.error("FROM") == .bad("Missing argument for FROM"))
        #expect(Self.error("FROM (a)") == .bad("Expected a string for FROM, found a list"))
        #expect(Self.error("OR SEEN") == .bad("Missing search key for OR"))
        #expect(Self.error("\"SEEN\"") == .bad("Expected a search key, found \"SEEN\""))
        #expect(Self.error("HEADER \"\" x") == .bad("Invalid header field name \"\" for HEADER"))
        #expect(Self.error("HEADER \"a:b\" x") != nil)
        #expect(Self.error("KEYWORD \"x\"") != nil)
        #expect(Self.error("MODSEQ \"/flags/x\" none 5") == .bad("MODSEQ entry type must be priv, shared or all"))
        #expect(Self.error("1,$") != nil)
        #expect(Self.error(String(repeating: "A", count: 100))?.text.count ?? 0 < 70)
        // Not UTF-8: BAD rather than a search for replacement characters.
        let arguments: ArraySlice<IMAPValue> = [.atom("FROM"), .quoted([0x61, 0xFF])]
        #expect(IMAPSearchCommand.parse(arguments) == .failure(.bad("The string for FROM is not valid UTF-8")))
    }

    @Test("MODSEQ and $ are found anywhere in the program")
    func modSeqAndSaved() {
        #expect(Self.key("OR SEEN NOT (DRAFT MODSEQ 5)")?.usesModSeq == true)
        #expect(Self.key("OR SEEN NOT (DRAFT 5)")?.usesModSeq == false)
        #expect(Self.key("NOT $")?.usesSavedResult == true)
        #expect(Self.key("UID 1:*")?.usesSavedResult == false)
    }
}
