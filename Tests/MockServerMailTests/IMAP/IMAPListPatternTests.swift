import MockServerMail
import Testing

/// LIST patterns (RFC 9051 §6.3.9): `*`, `%`, the reference, and time linear in name × pattern.
@Suite("IMAP LIST patterns")
struct IMAPListPatternTests {
    static func matches(_ pattern: String, _ name: String, reference: String = "") throws -> Bool {
        try IMAPListPattern(reference: reference, pattern: pattern).matches(IMAPMailboxName(name))
    }

    @Test("* crosses levels, % does not")
    func wildcards() throws {
        #expect(try Self.matches("*", "a/b/c"))
        #expect(try Self.matches("%", "a"))
        #expect(try !Self.matches("%", "a/b"))
        #expect(try Self.matches("a/%", "a/b"))
        #expect(try !Self.matches("a/%", "a/b/c"))
        #expect(try Self.matches("a/*", "a/b/c"))
        #expect(try !Self.matches("a/*", "a"))
        #expect(try Self.matches("%/%/c", "a/b/c"))
        #expect(try Self.matches("*c", "abc"))
        #expect(try !Self.matches("*c", "abcd"))
        #expect(try Self.matches("a%c", "abbbc"))
        #expect(try !Self.matches("a%c", "ab/bc"))
        #expect(try Self.matches("%*%", "x/y"))
        #expect(try !Self.matches("", "a"))
    }

    @Test("the reference is prefixed unless the pattern starts with the delimiter")
    func reference() throws {
        #expect(try Self.matches("%", "work/a", reference: "work/"))
        #expect(try !Self.matches("%", "a", reference: "work/"))
        #expect(try !Self.matches("/%", "work/a", reference: "work/"))
    }

    @Test("INBOX in a pattern matches in any case")
    func inbox() throws {
        #expect(try Self.matches("inbox", "INBOX"))
        #expect(try Self.matches("Inbox/%", "inbox/Sub"))
        #expect(try !Self.matches("Sub/inbox", "Sub/INBOX"))
    }

    @Test("50 stars against a long name take at most name × pattern steps")
    func noBlowUp() throws {
        let name = String(repeating: "a", count: 1_000)
        let folded = try IMAPListPattern(pattern: String(repeating: "*", count: 50) + "b")
        var steps = 0
        #expect(!folded.matches(name, steps: &steps))
        // The 50 stars fold into one: two tokens, two passes per character.
        #expect(steps <= 2 * (1_000 + 1) * (2 + 1))
        // Interleaved so that folding cannot help: the bound still holds.
        let pattern = String(repeating: "*a", count: 50) + "b"
        let interleaved = try IMAPListPattern(pattern: pattern)
        steps = 0
        #expect(!interleaved.matches(name, steps: &steps))
        #expect(steps > 0)
        #expect(steps <= 2 * (1_000 + 1) * (pattern.count + 1))
        steps = 0
        #expect(interleaved.matches(name + "b", steps: &steps))
        #expect(steps <= 2 * (1_001 + 1) * (pattern.count + 1))
    }

    @Test("random patterns agree with a plain recursive matcher")
    func randomAgainstModel() throws {
        func model(_ p: Substring, _ n: Substring) -> Bool {
            guard let first = p.first else { return n.isEmpty }
            switch first {
            case "*": return model(p.dropFirst(), n) || (!n.isEmpty && model(p, n.dropFirst()))
            case "%": return model(p.dropFirst(), n) || (!n.isEmpty && n.first != "/" && model(p, n.dropFirst()))
            default: return n.first == first && model(p.dropFirst(), n.dropFirst())
            }
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            func text(from alphabet: String, count: ClosedRange<Int>) -> String {
                let length = Int.random(in: count, using: &generator)
                return String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
            }
            let name = text(from: "ab/", count: 1...8), pattern = text(from: "ab/*%", count: 0...6)
            let compiled = try IMAPListPattern(pattern: pattern)
            var steps = 0
            #expect(compiled.matches(name, steps: &steps) == model(pattern[...], name[...]), "\(pattern) on \(name)")
        }
    }

    @Test("patterns longer than the limit or with control characters are refused")
    func limits() {
        let long = String(repeating: "%", count: IMAPListPattern.maximumLength + 1)
        #expect(throws: IMAPMailboxNameError.tooLong(length: long.count)) { try IMAPListPattern(pattern: long) }
        #expect(throws: IMAPMailboxNameError.controlCharacter(0)) { try IMAPListPattern(pattern: "a\u{0}") }
    }
}
