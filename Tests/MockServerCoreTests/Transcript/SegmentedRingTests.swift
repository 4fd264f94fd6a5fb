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
            #expect(dropped == (value >= limit))
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
}
