/// A budget of `capacity` events that comes back in full over `refill`: a token bucket that starts
/// full, spends a token per event, and regains one every `refill / capacity`, never holding more
/// than `capacity`. It is kept as one number, the moment the bucket would be full again (the
/// generic cell rate algorithm), so spending and refunding cost a comparison and an addition, and
/// time is read only when a token is spent.
///
/// Times are nanoseconds of a monotonic clock (``MockServerCore/MonotonicClock``), given by the
/// caller, so that tests choose them.
package struct HTTP2Budget: Sendable, Equatable {
    /// The most events the budget takes at once (a full bucket).
    package let capacity: Int
    /// The nanoseconds one token takes to come back.
    private let cost: UInt64
    /// How far ahead of now ``fullAt`` may go: the whole bucket's worth, `capacity` tokens.
    private let depth: UInt64
    /// The moment the bucket is full again; at or before now, it is full.
    private var fullAt: UInt64 = 0

    /// A full budget of `capacity` events (0 or more) that comes back in full over `refill`.
    package init(capacity: Int, refill: UInt64) {
        self.capacity = max(0, capacity)
        cost = max(1, refill / UInt64(max(1, capacity)))
        depth = cost &* UInt64(self.capacity)
    }

    /// Spends a token at `now`: false when none is left (the event is past the budget; nothing is spent).
    package mutating func spend(now: UInt64) -> Bool {
        let next = max(fullAt, now) &+ cost
        guard next - now <= depth else { return false }
        fullAt = next
        return true
    }

    /// Gives a token back (useful work earned it), never past a full bucket.
    package mutating func refund() {
        fullAt = fullAt > cost ? fullAt - cost : 0
    }

    /// The tokens left at `now`.
    package func remaining(now: UInt64) -> Int {
        guard fullAt > now else { return capacity }
        return Int((depth - min(depth, fullAt - now)) / cost)
    }
}
