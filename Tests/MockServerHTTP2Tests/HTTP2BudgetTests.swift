import MockServerHTTP2
import Testing

/// The token bucket the flood defences count with, on times the tests choose.
@Suite("HTTP/2 budget")
struct HTTP2BudgetTests {
    /// A second, in nanoseconds.
    static let second: UInt64 = 1_000_000_000

    /// Spends a token of `budget` at `now` (outside `#expect`, which cannot mutate).
    private func spend(_ budget: inout HTTP2Budget, at now: UInt64) -> Bool {
        budget.spend(now: now)
    }

    @Test("a full budget takes exactly its capacity at once; the next event is past it and spends nothing",
          arguments: [1, 2, 3, 7, 1_000, 10_000])
    func capacity(capacity: Int) {
        var budget = HTTP2Budget(capacity: capacity, refill: 30 * Self.second)
        let now = 1_000 * Self.second
        for _ in 0..<capacity { #expect(spend(&budget, at: now) == true) }
        #expect(budget.remaining(now: now) == 0)
        #expect(spend(&budget, at: now) == false)
        #expect(spend(&budget, at: now) == false)
        #expect(budget.remaining(now: now) == 0)
    }

    @Test("a token comes back every refill / capacity, and never more than the capacity")
    func refill() {
        // 10 tokens over 10 s: one a second.
        var budget = HTTP2Budget(capacity: 10, refill: 10 * Self.second)
        let start = 5 * Self.second
        for _ in 0..<10 { #expect(spend(&budget, at: start) == true) }
        #expect(spend(&budget, at: start + Self.second - 1) == false)
        #expect(spend(&budget, at: start + Self.second) == true)
        #expect(spend(&budget, at: start + Self.second) == false)
        // Long after, the budget is full again, not fuller.
        let later = start + 100 * Self.second
        #expect(budget.remaining(now: later) == 10)
        for _ in 0..<10 { #expect(spend(&budget, at: later) == true) }
        #expect(spend(&budget, at: later) == false)
    }

    @Test("a refund gives one token back, never past a full bucket")
    func refund() {
        var budget = HTTP2Budget(capacity: 3, refill: 30 * Self.second)
        let now = 7 * Self.second
        for _ in 0..<3 { #expect(spend(&budget, at: now) == true) }
        budget.refund()
        #expect(budget.remaining(now: now) == 1)
        #expect(spend(&budget, at: now) == true)
        #expect(spend(&budget, at: now) == false)
        // Refunds to a full budget are lost: three spends at most, however many refunds before.
        var full = HTTP2Budget(capacity: 3, refill: 30 * Self.second)
        for _ in 0..<100 { full.refund() }
        for _ in 0..<3 { #expect(spend(&full, at: now) == true) }
        #expect(spend(&full, at: now) == false)
    }

    @Test("edge cases: capacity 0 takes nothing; a refill shorter than the capacity in nanoseconds still limits; time 0")
    func edges() {
        var none = HTTP2Budget(capacity: 0, refill: Self.second)
        #expect(spend(&none, at: 0) == false)
        #expect(none.remaining(now: 0) == 0)
        var fast = HTTP2Budget(capacity: 5, refill: 1)
        for _ in 0..<5 { #expect(spend(&fast, at: 0) == true) }
        #expect(spend(&fast, at: 0) == false)
        #expect(spend(&fast, at: 1) == true)
    }
}
