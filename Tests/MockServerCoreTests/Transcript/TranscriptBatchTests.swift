import Foundation
import Testing
import MockServerCore

/// A batch of events recorded as one step keeps each event as given, in order, with one time;
/// the events move into their entries, and nothing of how they moved shows.
@Suite("Transcript batch")
struct TranscriptBatchTests {
    @Test("each event of a batch is its own entry, in order, with one time, unmatched ones kept apart too")
    func batchKeepsEvents() {
        let observed = Locked<[String]>([])
        let transcript = Transcript(limit: 4) { entry in observed.withLock { $0.append(entry.description) } }
        transcript.record(.output(Array("before".utf8)), connection: 1, channel: .main)
        let events: [Transcript.Event] = [
            .connected(peer: "in-process"), .unmatched(InputUnit("GET /nothing")), .output(Array("404".utf8)), .closed(.peerClosed),
        ]
        transcript.record(events, connection: 2, channel: .main)
        let entries = transcript.entries
        #expect(entries.map(\.sequence) == [1, 2, 3, 4])
        #expect(entries.map(\.event) == events)
        #expect(entries.allSatisfy { $0.connection == 2 && $0.time == entries[0].time })
        #expect(transcript.unmatched.map(\.event) == [.unmatched(InputUnit("GET /nothing"))])
        #expect(observed.withLock { Array($0.dropFirst()) } == entries.map(\.description))
        // The caller's array is its own still.
        #expect(events.count == 4 && events[2] == .output(Array("404".utf8)))
    }
}
