import Testing
import MockServerCore

/// The transcript's storage keeps the same elements in the same order as one array in a ring would,
/// across segment boundaries, when the limit is not a whole number of segments, and after a clear.
@Suite("Segmented ring")
struct SegmentedRingTests {
    /// What the transcript's single array kept after appending `0 ..< appended` with `limit`.
    private func reference(limit: Int, appended: Int) -> [Int] {
        Array(max(0, appended - limit)..<appended)
    }

    @Test("keeps the newest elements in order, growing over segments and then wrapping",
          arguments: [(1, 0), (1, 2), (3, 1), (4, 1), (5, 1), (7, 2), (10, 2), (8, 3), (6, 0)])
    func keepsNewestInOrder(limit: Int, segmentShift: Int) {
        var ring = SegmentedRing<Int>(limit: limit, segmentShift: segmentShift)
        #expect(ring.isEmpty)
        for value in 0..<(limit * 3 + 1) {
            let (position, dropped) = ring.append(value)
            #expect(dropped == (value >= limit ? value - limit : nil))
            #expect(ring[position] == value)
            #expect(ring.ordered == reference(limit: limit, appended: value + 1))
            #expect(ring.count == min(limit, value + 1))
        }
    }

    @Test("finds the oldest matching element first, also once wrapped")
    func firstWhere() {
        var ring = SegmentedRing<Int>(limit: 5, segmentShift: 1)
        for value in 0..<8 { ring.append(value) }
        #expect(ring.ordered == [3, 4, 5, 6, 7])
        #expect(ring.first { $0 % 2 == 0 } == 4)
        #expect(ring.first { $0 > 2 } == 3)
        #expect(ring.first { $0 > 7 } == nil)
    }

    @Test("removeAll starts over from an empty ring")
    func removeAll() {
        var ring = SegmentedRing<Int>(limit: 3, segmentShift: 1)
        for value in 0..<5 { ring.append(value) }
        ring.removeAll()
        #expect(ring.isEmpty)
        #expect(ring.ordered == [])
        for value in 10..<14 { ring.append(value) }
        #expect(ring.ordered == [11, 12, 13])
        #expect(ring.start == 1)
    }

    @Test("a transcript past several segments keeps every entry in order, then drops the oldest")
    func transcriptOverSegments() {
        let transcript = Transcript(limit: 2_500)
        for number in 0..<3_000 {
            transcript.record(.sent(number), connection: 1, channel: .main)
        }
        let entries = transcript.entries
        #expect(entries.map(\.sequence) == Array(500..<3_000))
        #expect(entries.map(\.description).last == "#1 main     -> 2999 bytes")
        #expect(transcript.droppedCount == 500)
    }

    @Test("elements taken out from the oldest leave slots the next ones fill before it grows; order holds throughout",
          arguments: [(7, 1), (10, 2), (3, 0)])
    func removeOldest(limit: Int, segmentShift: Int) {
        var ring = SegmentedRing<Int>(limit: limit, segmentShift: segmentShift)
        var reference: [Int] = []
        // A fixed mix of appends and removals, wrapped and not: each step checked against an array.
        var next = 0
        for round in 0..<60 {
            let removals = (round * 7) % 4
            for _ in 0..<min(removals, max(0, reference.count - 1)) {
                #expect(ring.removeOldest(leaving: -1) == reference.removeFirst())
            }
            for _ in 0..<(1 + round % 3) {
                let (position, dropped) = ring.append(next)
                reference.append(next)
                if reference.count > limit { #expect(dropped == reference.removeFirst()) } else { #expect(dropped == nil) }
                #expect(ring[position] == next)
                next += 1
            }
            #expect(ring.ordered == reference)
            #expect(ring.count == reference.count)
            #expect(ring.first { _ in true } == reference.first)
        }
        while !reference.isEmpty { #expect(ring.removeOldest(leaving: -1) == reference.removeFirst()) }
        #expect(ring.isEmpty)
        ring.append(99)
        #expect(ring.ordered == [99])
    }

    @Test("a transcript keeps its newest entries within its byte budget, counting what it drops; the newest stays whatever its size")
    func transcriptByteBudget() {
        let transcript = Transcript(limit: 100, byteLimit: 1_000)
        for number in 0..<10 {
            transcript.record(.output([UInt8](repeating: UInt8(number), count: 300)), connection: 1, channel: .main)
            transcript.record(.sent(number), connection: 1, channel: .main)
        }
        // Three outputs of 300 bytes fit in 1,000; the entries between them hold none, and the
        // oldest go only while the budget is exceeded (#13, before the oldest output kept, stays).
        #expect(transcript.entries.map(\.sequence) == Array(13..<20))
        #expect(transcript.droppedCount == 13)
        #expect(transcript.byteCount == 900)
        transcript.record(.input(InputUnit(bytes: [UInt8](repeating: 0x41, count: 5_000)), response: nil), connection: 1, channel: .main)
        #expect(transcript.entries.map(\.sequence) == [20])
        #expect(transcript.byteCount == 5_000)
        #expect(transcript.droppedCount == 20)
        transcript.record(.sent(1), connection: 1, channel: .main)
        #expect(transcript.entries.map(\.sequence) == [21])
        #expect(transcript.byteCount == 0)
        #expect(transcript.droppedCount == 21)
        transcript.removeAll()
        #expect(transcript.byteCount == 0)
        #expect(Transcript().byteLimit == 64 << 20)
    }
}
