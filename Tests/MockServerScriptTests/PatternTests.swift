import Foundation
import Testing
@testable import MockServerCore
@testable import MockServerScript

@Suite("Patterns")
struct PatternTests {
    static let patterns = [
        "^USER ([A-Za-z0-9_]+)", "^NOOP", "NOOP", "SYST", "PASS (\\w+)", "^CWD .*", "^SIZE ([a-zA-Z0-9.]+)",
        "^RETR\\.x", "^AB?C", "^A+B", "^A{2}", "X|NOOP", "(?i)noop", "^NO\\wP", "^N\\.OP", "^[N]OOP", "^NOOP$",
        "^$", "^ ", "a-b", "(\\w+).*", "^\\QNO\\E", "^NOOP\\b",
        ".*", "^.*", ".*$", "^.*$", "(?s).*", "(?s)^.*$", "(.*)", ".+",
    ]
    static let inputs = [
        "NOOP", "noop", "NOOPS", "xNOOP", "USER bob_1", "USER ", "PASS secret", "CWD /a b", "SIZE a.txt",
        "RETR.x", "RETRax", "AC", "ABC", "AAB", "AA", "X", "NO P", "N.OP", "", " ", "a-b", "caf\u{E9} NOOP",
        "two\nlines\n", "A\r\nB",
    ]

    @Test("the prefilters (a literal prefix, a pattern that matches everything) never change a result", arguments: patterns)
    func prefilterIsExact(pattern: String) throws {
        let compiled = try InputPattern(pattern)
        let reference = try NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators])
        for text in Self.inputs {
            let expected = reference.firstMatch(in: text, range: NSRange(location: 0, length: text.utf16.count)).map { result in
                (1..<result.numberOfRanges).map { Range(result.range(at: $0), in: text).map { String(text[$0]) } }
            }
            #expect(compiled.match(InputUnit(text)) == expected, "pattern \(pattern) on \(text.debugDescription)")
        }
    }

    @Test("literal prefixes found, and refused where they would be wrong")
    func literalAnalysis() {
        let noop = LiteralPrefix(pattern: "^NOOP")
        #expect(noop?.bytes == Array("NOOP".utf8) && noop?.anchored == true && noop?.isWholePattern == true)
        let user = LiteralPrefix(pattern: "USER (\\w+)")
        #expect(user?.bytes == Array("USER ".utf8) && user?.anchored == false && user?.isWholePattern == false)
        #expect(LiteralPrefix(pattern: "^AB?C")?.bytes == Array("A".utf8))
        #expect(LiteralPrefix(pattern: "^RETR\\.x")?.bytes == Array("RETR.x".utf8))
        #expect(LiteralPrefix(pattern: "X|NOOP") == nil)
        #expect(LiteralPrefix(pattern: "(?i)noop") == nil)
        #expect(LiteralPrefix(pattern: "^A+") == nil)
    }

    @Test("dot matches line separators")
    func dotAll() throws {
        #expect(try InputPattern("A.B").match(InputUnit("A\nB")) == [])
    }

    @Test("a pattern that does not compile throws with the engine's reason")
    func invalid() {
        #expect(throws: PatternError.self) { try InputPattern("(unclosed") }
    }

    @Test("«initial» matches no input")
    func initialMarker() throws {
        let pattern = try InputPattern("«initial»")
        #expect(pattern.isInitial)
        #expect(pattern.match(InputUnit("«initial»")) == nil)
    }
}
