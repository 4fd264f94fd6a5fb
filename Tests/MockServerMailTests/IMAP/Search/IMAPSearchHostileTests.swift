import Foundation
import MockServerMail
import Testing

/// Programs a hostile or broken client might send: random token soups, long chains, deep lists.
/// Each is answered (parsed or refused) without a crash, and what is accepted stays within the limits.
@Suite("IMAP SEARCH hostile input")
struct IMAPSearchHostileTests {
    /// The nesting of `key`: 1 for a simple key, one more for each NOT, OR or list around it.
    static func depth(_ key: IMAPSearchKey) -> Int {
        switch key {
        case .not(let inner): 1 + depth(inner)
        case .or(let keys), .and(let keys): 1 + (keys.map(depth).max() ?? 0)
        default: 1
        }
    }

    /// How many keys `key` holds, lists and ORs included.
    static func count(_ key: IMAPSearchKey) -> Int {
        switch key {
        case .not(let inner): count(inner)
        case .or(let keys), .and(let keys): 1 + keys.map(count).reduce(0, +)
        default: 1
        }
    }

    @Test("5,000 random programs: each parsed within the limits or refused, and the parsed ones evaluate")
    func randomPrograms() {
        var generator = IMAPSearchRandom(seed: 3501)
        let atoms: [IMAPValue] = ["OR", "NOT", "ALL", "SEEN", "FROM", "TEXT", "HEADER", "SINCE", "UID", "LARGER", "MODSEQ", "1:*", "$", "*", "CHARSET",
                                  "RETURN", "1-Feb-1994", "4294967296", "x"].map { .atom($0) }
            + [.number(5), .number(UInt64.max), .quoted(Array("hello".utf8)), .quoted([0xFF]), .literal(Array("a\r\nb".utf8), binary: false), .nil, .list([])]
        func value(_ level: Int) -> IMAPValue {
            if level < 4, Int.random(in: 0..<6, using: &generator) == 0 {
                return .list((0..<Int.random(in: 0...4, using: &generator)).map { _ in value(level + 1) })
            }
            return atoms.randomElement(using: &generator)!
        }
        let limits = IMAPSearchLimits(depth: 6, keyCount: 12)
        let candidates = IMAPSearchFixture.candidates()
        var accepted = 0
        for _ in 0..<5_000 {
            let arguments = (0..<Int.random(in: 0...10, using: &generator)).map { _ in value(0) }
            switch IMAPSearchCommand.parse(arguments[...], limits: limits) {
            case .success(let command):
                accepted += 1
                #expect(Self.depth(command.key) <= limits.depth + 1, "\(arguments)")
                for candidate in candidates { _ = IMAPSearchFixture.context.matches(command.key, candidate) }
            case .failure(.bad(let text)):
                #expect(!text.isEmpty && text.count < 200)
            case .failure(.badCharset):
                break
            }
        }
        #expect(accepted > 100)
    }

    @Test("20,000 NOTs and a 64 KiB line of ORs are answered at once, without recursing per token")
    func longChains() {
        let nots = Array(repeating: IMAPValue.atom("NOT"), count: 20_000) + [.atom("ALL")]
        #expect((try? IMAPSearchCommand.parse(nots[...]).get())?.key == .all)
        let ors = Array(repeating: IMAPValue.atom("OR"), count: 16_000) + Array(repeating: IMAPValue.atom("SEEN"), count: 16_001)
        #expect(IMAPSearchCommand.parse(ors[...]) == .failure(.bad("More than 1000 search keys")))
        let allowed = Array(repeating: IMAPValue.atom("OR"), count: 400) + Array(repeating: IMAPValue.atom("SEEN"), count: 401)
        guard case .success(let command) = IMAPSearchCommand.parse(allowed[...]) else {
            Issue.record("400 ORs refused")
            return
        }
        #expect(Self.depth(command.key) == 2)
        #expect(Self.count(command.key) == 402)
    }

    @Test("a needle longer than any decoding of the message is not found, and the message is not parsed")
    func longNeedle() {
        let candidate = IMAPTestCandidate(1, "Subject: x\r\nContent-Transfer-Encoding: base64\r\n\r\nYWJj\r\n")
        let context = IMAPSearchContext(messageCount: 1, largestUID: 10)
        let long = String(repeating: "abc", count: 100)
        #expect(!context.matches(.text(long), candidate))
        #expect(!context.matches(.subject(long), candidate))
        #expect(candidate.parses == 0)
        #expect(context.matches(.text("ABC"), candidate))
        #expect(candidate.parses == 1)
    }
}
