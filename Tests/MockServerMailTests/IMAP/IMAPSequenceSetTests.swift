import MockServerMail
import Testing

/// Sequence sets (RFC 9051 §9): parsing, 32-bit bounds, `$`, and resolution by ranges.
@Suite("IMAP sequence sets")
struct IMAPSequenceSetTests {
    @Test("1:3,5,7:*,* parses into its elements in order")
    func parsesElements() throws {
        let set = try IMAPSequenceSet(parsing: "1:3,5,7:*,*")
        #expect(set == .ranges([
            IMAPSequenceRange(.number(1), .number(3)), IMAPSequenceRange(.number(5), .number(5)),
            IMAPSequenceRange(.number(7), .last), IMAPSequenceRange(.last, .last),
        ]))
        #expect(Array(set.numbers(upTo: 9)) == [1, 2, 3, 5, 7, 8, 9])
        #expect(set.resolved(largest: 9) == [1...3, 5...5, 7...9])
    }

    @Test("$ alone is the saved result; combined with others it is refused")
    func savedResult() throws {
        #expect(try IMAPSequenceSet(parsing: "$") == .saved)
        #expect(throws: IMAPSequenceSetError.savedNotAlone(position: 2)) { try IMAPSequenceSet(parsing: "1,$") }
        #expect(throws: IMAPSequenceSetError.savedNotAlone(position: 0)) { try IMAPSequenceSet(parsing: "$:4") }
        #expect(IMAPSequenceSet.saved.resolved(largest: 5) == nil)
        #expect(!IMAPSequenceSet.saved.contains(1, largest: 5))
    }

    @Test("numbers are 1…4294967295: 0, leading zeros and larger numbers are refused")
    func bounds() throws {
        let largest = IMAPSequenceRange(.number(.max), .number(.max))
        #expect(try IMAPSequenceSet(parsing: "4294967295") == .ranges([largest]))
        #expect(throws: IMAPSequenceSetError.tooLarge(number: "4294967296", position: 2)) {
            try IMAPSequenceSet(parsing: "1:4294967296")
        }
        #expect(throws: IMAPSequenceSetError.zero(position: 0)) { try IMAPSequenceSet(parsing: "0") }
        #expect(throws: IMAPSequenceSetError.zero(position: 2)) { try IMAPSequenceSet(parsing: "1,01") }
        let huge = String(repeating: "9", count: 100)
        do {
            _ = try IMAPSequenceSet(parsing: huge)
            Issue.record("a 100-digit number was accepted")
        } catch {
            #expect(error.description.contains("exceeds 4294967295"))
            #expect(error.description.count < 120)
        }
    }

    @Test("malformed sets are refused with the offset", arguments: [
        ("", IMAPSequenceSetError.empty(position: 0)), ("1,", .empty(position: 2)), (",1", .empty(position: 0)),
        ("1::2", .empty(position: 2)), ("1:", .empty(position: 2)), ("1 2", .unexpected(character: 0x20, position: 1)),
        ("1:2:3", .unexpected(character: 0x3A, position: 3)), ("-1", .unexpected(character: 0x2D, position: 0)),
        ("1\r\n", .unexpected(character: 0x0D, position: 1)), ("**", .unexpected(character: 0x2A, position: 1)),
    ])
    func malformed(text: String, error: IMAPSequenceSetError) {
        #expect(throws: error) { try IMAPSequenceSet(parsing: text) }
    }

    @Test("a set longer than the limit is refused before parsing")
    func tooLong() {
        let text = Array(repeating: "1", count: IMAPSequenceSet.maximumLength / 2 + 1).joined(separator: ",")
        #expect(throws: IMAPSequenceSetError.tooLong(length: text.utf8.count)) { try IMAPSequenceSet(parsing: text) }
    }

    @Test("a:b with a > b is b:a, and * resolves to the largest number")
    func reversedRange() throws {
        #expect(try IMAPSequenceSet(parsing: "7:3").resolved(largest: 10) == [3...7])
        // RFC 9051 §9: 559:* includes the last UID even when 559 is above it.
        let uids = try IMAPSequenceSet(parsing: "559:*")
        #expect(uids.resolved(largest: 400) == [400...559])
        #expect(uids.contains(400, largest: 400))
        #expect(!uids.contains(399, largest: 400))
        #expect(Array(uids.numbers(upTo: 400)) == [400])
    }

    @Test("1:4294967295 is resolved and iterated by ranges, never materialised")
    func wholeRange() throws {
        let set = try IMAPSequenceSet(parsing: "1:4294967295,5,2:9")
        #expect(set.resolved(largest: 3) == [1...4_294_967_295])
        #expect(set.contains(4_294_967_295, largest: 3))
        #expect(Array(set.numbers(upTo: 3)) == [1, 2, 3])
        #expect(Array(set.numbers(upTo: 4_294_967_295).prefix(3)) == [1, 2, 3])
        #expect(set.highest(largest: 3) == 4_294_967_295)
    }

    @Test("overlapping and adjacent elements merge; each number comes once")
    func merging() throws {
        let set = try IMAPSequenceSet(parsing: "5:6,1,2:3,4,9,3:2,20:*")
        #expect(set.resolved(largest: 12) == [1...6, 9...9, 12...20])
        #expect(Array(set.numbers(upTo: 12)) == [1, 2, 3, 4, 5, 6, 9, 12])
        #expect(Array(set.numbers(upTo: 0)).isEmpty)
        #expect(try IMAPSequenceSet(parsing: "*").resolved(largest: .max) == [UInt32.max...UInt32.max])
    }

    @Test("random sets agree with a naive model")
    func randomAgainstModel() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let largest = UInt32.random(in: 0...30, using: &generator)
            var model = Set<UInt32>()
            var parts: [String] = []
            for _ in 0..<Int.random(in: 1...5, using: &generator) {
                let a = UInt32.random(in: 1...32, using: &generator), b = UInt32.random(in: 1...32, using: &generator)
                let star = Bool.random(using: &generator)
                let second = star ? max(largest, 1) : b
                parts.append(star ? "\(a):*" : "\(a):\(b)")
                for n in min(a, second)...max(a, second) where n <= largest { model.insert(n) }
            }
            let set = try IMAPSequenceSet(parsing: parts.joined(separator: ","))
            let text = parts.joined(separator: ",")
            if largest > 0 {
                #expect(Array(set.numbers(upTo: largest)) == model.sorted(), "\(text) up to \(largest)")
            }
        }
    }
}
