import Foundation
import Testing
@_spi(HotPath) import MockServerCore

/// The observer sees each entry as it is recorded, also once the transcript is full and a new
/// entry takes the oldest one's place; a waiter is satisfied by the entry it waits for.
@Suite("Transcript observer")
struct TranscriptObserverTests {
    @Test("the observer gets every entry in order, before and after the ring is full, one at a time and in a batch")
    func observedInOrder() {
        let seen = Locked<[Int]>([])
        let transcript = Transcript(limit: 3) { entry in seen.withLock { $0.append(entry.sequence) } }
        for number in 0..<5 {
            transcript.record(.output(Array("\(number)".utf8)), connection: 1, channel: .main)
        }
        transcript.record([.output(Array("5".utf8)), .output(Array("6".utf8))], connection: 1, channel: .main)
        #expect(seen.withLock { $0 } == [0, 1, 2, 3, 4, 5, 6])
        #expect(transcript.entries.map(\.sequence) == [4, 5, 6])
        #expect(transcript.droppedCount == 4)
    }

    @Test("a waiter is satisfied by the entry it waits for once the ring is full")
    func waiterSatisfied() async throws {
        let transcript = Transcript(limit: 2)
        for number in 0..<3 {
            transcript.record(.output(Array("\(number)".utf8)), connection: 1, channel: .main)
        }
        async let waited = transcript.wait(timeout: .seconds(10)) { $0.sequence == 3 }
        transcript.record(.output(Array("3".utf8)), connection: 7, channel: .main)
        let entry = try await waited
        #expect(entry.connection == 7)
        #expect(transcript.entries.map(\.sequence) == [2, 3])
    }
}
