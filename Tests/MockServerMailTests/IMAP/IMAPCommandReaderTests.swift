import MockServerMail
import Testing

/// Framing IMAP commands from received bytes: values, literals and their continuations,
/// limits, and reading on after a malformed command.
@Suite("IMAP command reader")
struct IMAPCommandReaderTests {
    /// Feeds `chunks` one after another, as reads from a socket, and collects every result.
    static func results(_ chunks: [[UInt8]], limits: IMAPReaderLimits = IMAPReaderLimits()) -> [IMAPReadResult] {
        var reader = IMAPCommandReader(limits: limits)
        var results: [IMAPReadResult] = []
        var pending: [UInt8] = []
        for chunk in chunks {
            pending += chunk
            var input = pending[...]
            while let result = reader.read(&input) { results.append(result) }
            pending = Array(input)
        }
        return results
    }

    static func results(_ text: String, limits: IMAPReaderLimits = IMAPReaderLimits()) -> [IMAPReadResult] {
        results([Array(text.utf8)], limits: limits)
    }

    /// The one command `text` makes.
    static func command(_ text: String) -> IMAPCommand? {
        let all = results(text)
        guard all.count == 1, case .command(let command) = all[0] else { return nil }
        return command
    }

    static func quoted(_ text: String) -> IMAPValue { .quoted(Array(text.utf8)) }

    @Test("RFC 9051 and RFC 3501 example commands")
    func rfcExamples() {
        #expect(Self.command("a001 login SMITH SESAME\r\n")
                == IMAPCommand(tag: "a001", name: "LOGIN", arguments: [.atom("SMITH"), .atom("SESAME")]))
        #expect(Self.command("A142 SELECT INBOX\r\n")?.arguments == [.atom("INBOX")])
        #expect(Self.command("A002 CAPABILITY\r\n") == IMAPCommand(tag: "A002", name: "CAPABILITY", arguments: []))
        #expect(Self.command("A682 LIST \"\" *\r\n")?.arguments == [Self.quoted(""), .atom("*")])
        #expect(Self.command("A202 LIST ~/Mail/ %\r\n")?.arguments == [.atom("~/Mail/"), .atom("%")])
        #expect(Self.command("A282 SEARCH FLAGGED SINCE 1-Feb-1994 NOT FROM \"Smith\"\r\n")?.arguments
                == [.atom("FLAGGED"), .atom("SINCE"), .atom("1-Feb-1994"), .atom("NOT"), .atom("FROM"), Self.quoted("Smith")])
        #expect(Self.command("A003 STORE 2:4 +FLAGS (\\Deleted)\r\n")?.arguments
                == [.atom("2:4"), .atom("+FLAGS"), .list([.atom("\\Deleted")])])
        #expect(Self.command("A999 UID FETCH 4827313:4828442 FLAGS\r\n")
                == IMAPCommand(tag: "A999", name: "UID", arguments: [.atom("FETCH"), .atom("4827313:4828442"), .atom("FLAGS")]))
        #expect(Self.command("A654 FETCH 2:4 (FLAGS BODY[HEADER.FIELDS (DATE FROM)])\r\n")?.arguments
                == [.atom("2:4"), .list([.atom("FLAGS"),
                    .section(name: "BODY", section: [.atom("HEADER.FIELDS"), .list([.atom("DATE"), .atom("FROM")])], partial: nil)])])
        #expect(Self.command("a FETCH 1 (BODY.PEEK[]<0.10> BINARY[1.2] RFC822.SIZE)\r\n")?.arguments
                == [.number(1), .list([.section(name: "BODY.PEEK", section: [], partial: IMAPPartial(offset: 0, count: 10)),
                                       .section(name: "BINARY", section: [.atom("1.2")], partial: nil), .atom("RFC822.SIZE")])])
        #expect(Self.command("A004 STATUS blurdybloop (UIDNEXT MESSAGES)\r\n")?.arguments
                == [.atom("blurdybloop"), .list([.atom("UIDNEXT"), .atom("MESSAGES")])])
        #expect(Self.command("a1 SELECT [Gmail]/Sent\r\n")?.arguments == [.atom("[Gmail]/Sent")])
        #expect(Self.command("A1 ID NIL\r\n")?.arguments == [.nil])
        #expect(Self.command("a2 ID (\"name\" \"sodr\" \"version\" \"19.34\")\r\n")?.arguments
                == [.list([Self.quoted("name"), Self.quoted("sodr"), Self.quoted("version"), Self.quoted("19.34")])])
    }

    @Test("APPEND with a synchronizing literal: the continuation is asked exactly once")
    func synchronizingLiteral() {
        let message = "Date: Mon, 7 Feb 1994 21:52:25 -0800\r\nSubject: afternoon meeting\r\n\r\nHello Joe\r\n"
        let first = "A003 APPEND saved-messages (\\Seen) {\(message.utf8.count)}\r\n"
        let results = Self.results([Array(first.utf8), Array(message.utf8), Array("\r\n".utf8)])
        #expect(results == [.continuation, .command(IMAPCommand(tag: "A003", name: "APPEND", arguments: [
            .atom("saved-messages"), .list([.atom("\\Seen")]), .literal(Array(message.utf8), binary: false)]))])
    }

    @Test("a literal split across reads at every byte, CR, LF and NUL in its data")
    func literalSplitEverywhere() {
        let data: [UInt8] = [0x61, 0x0D, 0x0A, 0x00, 0x0A, 0x0D, 0xFF, 0x7B, 0x32, 0x7D]
        let text = Array("t1 APPEND x {10}\r\n".utf8) + data + Array(" ~{3+}\r\n\0\0\0 y\r\nt2 NOOP\r\n".utf8)
        let expected: [IMAPReadResult] = [
            .continuation,
            .command(IMAPCommand(tag: "t1", name: "APPEND", arguments: [
                .atom("x"), .literal(data, binary: false), .literal([0, 0, 0], binary: true), .atom("y")])),
            .command(IMAPCommand(tag: "t2", name: "NOOP", arguments: [])),
        ]
        #expect(Self.results([text]) == expected)
        for cut in 0...text.count {
            #expect(Self.results([Array(text[..<cut]), Array(text[cut...])]) == expected, "cut at \(cut)")
        }
        #expect(Self.results(text.map { [$0] }) == expected)
    }

    @Test("a non-synchronizing literal is read without a continuation")
    func nonSynchronizingLiteral() {
        #expect(Self.results("a LOGIN {3+}\r\nfoo {3+}\nbar\r\n")
                == [.command(IMAPCommand(tag: "a", name: "LOGIN", arguments: [
                    .literal(Array("foo".utf8), binary: false), .literal(Array("bar".utf8), binary: false)]))])
    }

    @Test("a synchronizing literal past the limit gets BAD, is never invited, and the next command is read")
    func synchronizingLiteralTooLarge() {
        let limits = IMAPReaderLimits(literalSize: 100)
        #expect(Self.results("a APPEND x {101}\r\nb NOOP\r\n", limits: limits) == [
            .bad(tag: "a", .literalTooLarge(size: 101, limit: 100, synchronizing: true)),
            .command(IMAPCommand(tag: "b", name: "NOOP", arguments: [])),
        ])
        #expect(Self.results("a APPEND x {100}\r\n", limits: limits) == [.continuation])
    }

    @Test("a non-synchronizing literal past the limit closes before its data is read")
    func nonSynchronizingLiteralTooLarge() {
        let limits = IMAPReaderLimits(literalSize: 10_000, nonSynchronizingLiteralSize: 4096)
        var reader = IMAPCommandReader(limits: limits)
        var input = Array("a APPEND x {4097+}\r\nb NOOP\r\n".utf8)[...]
        #expect(reader.read(&input) == .close(tag: "a", .literalTooLarge(size: 4097, limit: 4096, synchronizing: false)))
        #expect(reader.read(&input) == nil)
        #expect(Self.results("a APPEND x {4097}\r\n", limits: limits) == [.continuation])
    }

    @Test("a huge literal size does not overflow", arguments: [
        "{18446744073709551615}", "{18446744073709551616}", "{99999999999999999999999999999999}",
    ])
    func hugeLiteralSize(marker: String) {
        let results = Self.results("a APPEND x \(marker)\r\nb NOOP\r\n")
        #expect(results.count == 2)
        guard case .bad(tag: "a", .literalTooLarge(_, _, synchronizing: true)) = results.first else {
            Issue.record("got \(results)"); return
        }
        #expect(results.last == .command(IMAPCommand(tag: "b", name: "NOOP", arguments: [])))
        let close = Self.results("a APPEND x \(marker.dropLast())+}\r\nb NOOP\r\n")
        guard close.count == 1, case .close(tag: "a", .literalTooLarge) = close[0] else { Issue.record("got \(close)"); return }
    }

    @Test("nested lists, and the nesting limit")
    func nestedLists() {
        #expect(Self.command("a X (1 (2 (3 \"q\") ()) NIL)\r\n")?.arguments
                == [.list([.number(1), .list([.number(2), .list([.number(3), Self.quoted("q")]), .list([])]), .nil])])
        let limits = IMAPReaderLimits(nestingDepth: 3)
        #expect(Self.results("a X (((1)))\r\n", limits: limits).count == 1)
        #expect(Self.results("a X ((((1))))\r\nb NOOP\r\n", limits: limits) == [
            .bad(tag: "a", .nestedTooDeep(limit: 3)), .command(IMAPCommand(tag: "b", name: "NOOP", arguments: [])),
        ])
    }

    @Test("the argument count limit")
    func argumentCount() {
        let limits = IMAPReaderLimits(argumentCount: 4)
        #expect(Self.results("a X 1 (2 3) 4\r\n", limits: limits).count == 1)
        #expect(Self.results("a X 1 (2 3 4) 5\r\n", limits: limits) == [.bad(tag: "a", .tooManyArguments(limit: 4))])
    }

    @Test("bad syntax is answered per command and the next command is still read", arguments: [
        ("a X \"open\r\n", IMAPReadResult.bad(tag: "a", .unterminatedQuotedString)),
        ("a X (1 2\r\n", .bad(tag: "a", .unclosedList)),
        ("a X 1)\r\n", .bad(tag: "a", .unexpectedClose(0x29))),
        ("a X \"b\\q\"\r\n", .bad(tag: "a", .badEscape(0x71))),
        ("a X {3} y\r\n", .bad(tag: "a", .badLiteralMarker)),
        ("a X {}\r\n", .bad(tag: "a", .badLiteralMarker)),
        ("a FETCH 1 BODY[]<1.0>\r\n", .bad(tag: "a", .badPartial)),
        ("a FETCH 1 BODY[]<4294967296>\r\n", .bad(tag: "a", .badPartial)),
        ("a X caf\u{E9}\r\n", .bad(tag: "a", .unexpectedByte(0xC3, offset: 7))),
        ("a X \"a\rb\"\r\n", .bad(tag: "a", .unexpectedByte(0x0D, offset: 6))),
        ("a\r\n", .bad(tag: nil, .missingTag)),
        ("+ NOOP\r\n", .bad(tag: nil, .missingTag)),
        ("a  \r\n", .bad(tag: "a", .missingCommandName)),
    ])
    func badSyntax(line: String, expected: IMAPReadResult) {
        #expect(Self.results(line + "b NOOP\r\n") == [expected, .command(IMAPCommand(tag: "b", name: "NOOP", arguments: []))])
    }

    @Test("a malformed line ending in {n+} has that literal skipped, not read as a command")
    func malformedWithNonSynchronizingLiteral() {
        #expect(Self.results("a X (\"open {9+}\r\nc NOOP\r\n\r\nb NOOP\r\n") == [
            .bad(tag: "a", .unterminatedQuotedString), .command(IMAPCommand(tag: "b", name: "NOOP", arguments: [])),
        ])
    }

    @Test("CRLF and bare LF end lines alike; empty lines are ignored")
    func lineEnds() {
        let expected = [IMAPReadResult.command(IMAPCommand(tag: "a", name: "NOOP", arguments: [])),
                        .command(IMAPCommand(tag: "b", name: "SELECT", arguments: [.atom("INBOX")]))]
        #expect(Self.results("a NOOP\r\nb SELECT INBOX\r\n") == expected)
        #expect(Self.results("a NOOP\nb SELECT INBOX\n") == expected)
        #expect(Self.results("\r\n\na NOOP\r\n\r\nb SELECT INBOX\n") == expected)
        #expect(Self.results("a NOOP") == [])
    }

    @Test("8-bit bytes in a quoted string are kept (UTF8=ACCEPT); escapes removed")
    func eightBitQuoted() {
        #expect(Self.command("a CREATE \"Entw\u{FC}rfe \\\"x\\\\\"\r\n")?.arguments == [Self.quoted("Entw\u{FC}rfe \"x\\")])
        let invalid = Self.results([Array("a CREATE \"".utf8) + [0xFF, 0xFE, 0x22, 0x0A]])
        #expect(invalid == [.command(IMAPCommand(tag: "a", name: "CREATE", arguments: [.quoted([0xFF, 0xFE])]))])
    }

    @Test("numbers: 64-bit ones as numbers, longer ones as atoms")
    func numbers() {
        #expect(Self.command("a FETCH 4294967296 18446744073709551616 0\r\n")?.arguments
                == [.number(4_294_967_296), .atom("18446744073709551616"), .number(0)])
    }

    @Test("a line past the limit gets one BAD and is skipped to its end, however it arrives")
    func lineTooLong() {
        let limits = IMAPReaderLimits(lineLength: 32)
        let long = "a X " + String(repeating: "y", count: 100) + "\r\nb NOOP\r\n"
        let expected = [IMAPReadResult.bad(tag: "a", .lineTooLong(limit: 32)), .command(IMAPCommand(tag: "b", name: "NOOP", arguments: []))]
        #expect(Self.results(long, limits: limits) == expected)
        #expect(Self.results(Array(long.utf8).map { [$0] }, limits: limits) == expected)
        // Exactly at the limit, line end included, is accepted.
        let fits = "a X " + String(repeating: "y", count: 26) + "\r\n"
        #expect(Self.results(fits, limits: limits).count == 1)
        #expect(Self.results("a X " + String(repeating: "y", count: 27) + "\r\n", limits: limits).first == expected[0])
        // The text of all lines of a command counts, literal data not.
        #expect(Self.results("a X {40+}\r\n" + String(repeating: "z", count: 40) + " " + String(repeating: "w", count: 30) + "\r\nb NOOP\r\n",
                             limits: limits) == expected)
    }

    @Test("the literals of one command together are bounded by the literal limit")
    func literalsTogether() {
        let limits = IMAPReaderLimits(literalSize: 10)
        #expect(Self.results("a X {6+}\r\n123456 {4+}\r\n1234\r\n", limits: limits).count == 1)
        #expect(Self.results("a X {6+}\r\n123456 {5}\r\nb NOOP\r\n", limits: limits) == [
            .bad(tag: "a", .literalTooLarge(size: 11, limit: 10, synchronizing: true)),
            .command(IMAPCommand(tag: "b", name: "NOOP", arguments: [])),
        ])
        #expect(Self.results("a X {6+}\r\n123456 {5+}\r\n12345\r\n", limits: limits) == [
            .close(tag: "a", .literalTooLarge(size: 11, limit: 10, synchronizing: false)),
        ])
    }

    @Test("a malformed line ending in {n} is answered BAD and its literal never invited")
    func malformedWithSynchronizingLiteral() {
        #expect(Self.results("a LOGIN \"x {5}\r\nb NOOP\r\n") == [
            .bad(tag: "a", .unterminatedQuotedString), .command(IMAPCommand(tag: "b", name: "NOOP", arguments: [])),
        ])
    }

    @Test("a malformed line after a literal refuses the whole command under its tag")
    func malformedAfterLiteral() {
        #expect(Self.results("a X {3+}\r\nabc )\r\nb NOOP\r\n") == [
            .bad(tag: "a", .unexpectedClose(0x29)), .command(IMAPCommand(tag: "b", name: "NOOP", arguments: [])),
        ])
    }

    @Test("tags: astring characters but +, %, * and backslash")
    func tags() {
        #expect(Self.command("A]1.x NOOP\r\n")?.tag == "A]1.x")
        for tag in ["a+", "a%", "a*", "a\\", "(a"] {
            #expect(Self.results("\(tag) NOOP\r\n") == [.bad(tag: nil, .missingTag)], "tag \(tag)")
        }
    }

    @Test("random input: whole or split at random, the same results, and all of it consumed")
    func randomInputSplitInvariance() {
        // A fixed-seed generator (SplitMix64), so a failure is reproducible.
        var state: UInt64 = 0x5EED_1234
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let pieces = ["a ", "b1 ", "NOOP", "FETCH ", "(", ")", "\"", "\\", " ", "{2}", "{3+}", "~{1}", "\r\n", "\n",
                      "\r", "BODY[", "]", "<0.5>", "1:*", "NIL", "\u{E9}", "\0", "{99999999999999999999+}"].map { Array($0.utf8) }
        let limits = IMAPReaderLimits(lineLength: 64, literalSize: 8, nestingDepth: 4, argumentCount: 12)
        for _ in 0..<300 {
            var input: [UInt8] = []
            for _ in 0..<Int(next() % 40) { input += pieces[Int(next() % UInt64(pieces.count))] }
            let whole = Self.results([input], limits: limits)
            var chunks: [[UInt8]] = []
            var rest = input[...]
            while !rest.isEmpty {
                let size = Int(next() % 7) + 1
                chunks.append(Array(rest.prefix(size)))
                rest = rest.dropFirst(size)
            }
            #expect(Self.results(chunks, limits: limits) == whole, "input \(input)")
            #expect(Self.results(input.map { [$0] }, limits: limits) == whole, "input \(input)")
        }
    }

    @Test("a line too long ending in {n+} has that literal skipped too, or closes if it is too large")
    func tooLongWithNonSynchronizingLiteral() {
        let limits = IMAPReaderLimits(lineLength: 32, literalSize: 100)
        let line = "a X " + String(repeating: "y", count: 40)
        let noop = IMAPReadResult.command(IMAPCommand(tag: "b", name: "NOOP", arguments: []))
        // The literal's data, then the rest of the command's line, are skipped.
        let text = Array((line + " {5+}\r\nc X\r\n rest of a\r\nb NOOP\r\n").utf8)
        #expect(Self.results([text], limits: limits) == [.bad(tag: "a", .lineTooLong(limit: 32)), noop])
        #expect(Self.results(text.map { [$0] }, limits: limits) == [.bad(tag: "a", .lineTooLong(limit: 32)), noop])
        let huge = Array((line + " {" + String(repeating: "9", count: 50) + "+}\r\nb NOOP\r\n").utf8)
        #expect(Self.results(huge.map { [$0] }, limits: limits)
                == [.bad(tag: "a", .lineTooLong(limit: 32)), .close(tag: nil, .literalTooLarge(size: nil, limit: 100, synchronizing: false))])
        // Digits without a brace are no literal.
        #expect(Self.results(line + "123+}\r\nb NOOP\r\n", limits: limits) == [.bad(tag: "a", .lineTooLong(limit: 32)), noop])
    }

    @Test("a line too long: its tag is looked for within the limit, so the answer is the same however it arrives (FuzzIMAP)")
    func tooLongTagWithinLimit() {
        let limits = IMAPReaderLimits(lineLength: 16)
        let noop = IMAPReadResult.command(IMAPCommand(tag: "b", name: "NOOP", arguments: []))
        // The first space is past the limit: no tag, whether the space had arrived or not.
        let untagged = Array((String(repeating: "t", count: 20) + " NOOP\r\nb NOOP\r\n").utf8)
        let expected = [IMAPReadResult.bad(tag: nil, .lineTooLong(limit: 16)), noop]
        #expect(Self.results([untagged], limits: limits) == expected)
        #expect(Self.results([Array(untagged.prefix(16)), Array(untagged.dropFirst(16))], limits: limits) == expected)
        #expect(Self.results(untagged.map { [$0] }, limits: limits) == expected)
        // A tag whose space is the last byte within the limit is the answer's tag.
        let tagged = Array((String(repeating: "t", count: 15) + " " + String(repeating: "x", count: 20) + "\r\nb NOOP\r\n").utf8)
        let answer = [IMAPReadResult.bad(tag: String(repeating: "t", count: 15), .lineTooLong(limit: 16)), noop]
        #expect(Self.results([tagged], limits: limits) == answer)
        #expect(Self.results(tagged.map { [$0] }, limits: limits) == answer)
    }

    @Test("a line arriving in pieces is scanned on from where the last read stopped; a line taken outside the reader (a script answered it) resets that")
    func scannedOnce() {
        var reader = IMAPCommandReader()
        var input = Array("a CAPABILI".utf8)[...]
        #expect(reader.read(&input) == nil)
        input = Array("a CAPABILITY\r\nb X\r\n".utf8)[...]
        #expect(reader.read(&input) == .command(IMAPCommand(tag: "a", name: "CAPABILITY", arguments: [])))
        // The caller cut "a CAPABILI…" off itself, so the front of the input is a new line.
        var other = IMAPCommandReader()
        input = Array("a CAPABILI".utf8)[...]
        #expect(other.read(&input) == nil)
        input = Array("b X\r\nc NOOP\r\n".utf8)[...]
        other.inputTakenOutside()
        #expect(other.read(&input) == .command(IMAPCommand(tag: "b", name: "X", arguments: [])))
        #expect(other.read(&input) == .command(IMAPCommand(tag: "c", name: "NOOP", arguments: [])))
    }

    @Test("a CR alone, then its LF in the next read, is an empty line skipped; the next line is read whole")
    func emptyLineAcrossReads() {
        let noop = IMAPReadResult.command(IMAPCommand(tag: "b", name: "NOOP", arguments: []))
        #expect(Self.results([Array("\r".utf8), Array("\nb NO".utf8), Array("OP\r\n".utf8)]) == [noop])
        #expect(Self.results([Array("\r".utf8), Array("\n".utf8), Array("b NOOP\n".utf8)]) == [noop])
    }

    @Test("astring arguments as bytes, whatever form they were sent in")
    func stringBytes() {
        let arguments = Self.command("a LOGIN nil 42 \"p w\" {2+}\r\nxy (1) BODY[]\r\n")?.arguments ?? []
        #expect(arguments.map(\.stringBytes) == [Array("NIL".utf8), Array("42".utf8), Array("p w".utf8), Array("xy".utf8), nil, nil])
    }

    @Test("the literal count limit: {n} refused uninvited, {n+} refused with its data skipped")
    func literalCount() {
        let limits = IMAPReaderLimits(literalCount: 2)
        let noop = IMAPReadResult.command(IMAPCommand(tag: "b", name: "NOOP", arguments: []))
        #expect(Self.results("a X {1+}\r\n1 {1+}\r\n2\r\n", limits: limits).count == 1)
        #expect(Self.results("a X {1+}\r\n1 {1+}\r\n2 {1}\r\nb NOOP\r\n", limits: limits)
                == [.bad(tag: "a", .tooManyLiterals(limit: 2)), noop])
        #expect(Self.results("a X {1+}\r\n1 {1+}\r\n2 {3+}\r\nc X\r\nb NOOP\r\n", limits: limits)
                == [.bad(tag: "a", .tooManyLiterals(limit: 2)), noop])
    }

    @Test("a literal inside a list and inside a section's list")
    func literalInList() {
        #expect(Self.results("a X ({3}\r\nabc \"q\")\r\n") == [.continuation, .command(IMAPCommand(tag: "a", name: "X", arguments: [
            .list([.literal(Array("abc".utf8), binary: false), Self.quoted("q")])]))])
        #expect(Self.command("a FETCH 1 BODY.PEEK[HEADER.FIELDS ({4+}\r\nDate)]<5>\r\n")?.arguments == [.number(1),
            .section(name: "BODY.PEEK", section: [.atom("HEADER.FIELDS"), .list([.literal(Array("Date".utf8), binary: false)])],
                     partial: IMAPPartial(offset: 5, count: nil))])
    }
}
