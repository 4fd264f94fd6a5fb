import Testing
import MockServerCore

/// The transcript's byte store: runs in chunks, never straddling two, freed oldest first.
@Suite("Transcript bytes")
struct TranscriptBytesTests {
    private func append(_ bytes: [UInt8], _ second: [UInt8] = [], to store: inout TranscriptBytes) -> Int {
        bytes.withUnsafeBytes { first in second.withUnsafeBytes { store.append(first, $0) } }
    }

    @Test("a run that does not fit in the rest of a chunk starts the next; one of a whole chunk fits; two parts make one run")
    func runsStayInOneChunk() {
        var store = TranscriptBytes(chunkSize: 8)
        #expect(append([1, 2, 3, 4, 5], to: &store) == 0)
        #expect(append([6, 7, 8, 9, 10], to: &store) == 8)
        #expect(append([11, 12], [13], to: &store) == 13)
        #expect(append(Array(20..<28), to: &store) == 16)
        #expect(append([], to: &store) == 24)
        #expect(store.chunkCount == 3)
        #expect(store.bytes(at: 0, count: 5) == [1, 2, 3, 4, 5])
        #expect(store.bytes(at: 8, count: 5) == [6, 7, 8, 9, 10])
        #expect(store.bytes(at: 13, count: 3) == [11, 12, 13])
        #expect(store.bytes(at: 16, count: 8) == Array(20..<28))
        #expect(store.string(at: 1, count: 0) == "")
    }

    @Test("release frees whole chunks before the offset only; what follows stays readable; freeing all starts afresh")
    func release() {
        var store = TranscriptBytes(chunkSize: 4)
        for value in 0..<6 { _ = append([UInt8(value), UInt8(value), UInt8(value)], to: &store) }
        #expect(store.chunkCount == 6)
        store.release(upTo: 7)
        #expect(store.chunkCount == 5)
        #expect(store.bytes(at: 8, count: 3) == [2, 2, 2])
        store.release(upTo: 7)
        #expect(store.chunkCount == 5)
        store.release(upTo: 19)
        #expect(store.chunkCount == 2)
        #expect(store.bytes(at: 20, count: 3) == [5, 5, 5])
        store.release(upTo: store.end)
        #expect(store.chunkCount == 1, "the last chunk is not full: it stays")
        #expect(append([9, 9, 9, 9], to: &store) == 24)
        store.release(upTo: store.end)
        #expect(store.chunkCount == 0)
        let start = append([7], to: &store)
        #expect(start == store.end - 1)
        #expect(store.bytes(at: start, count: 1) == [7])
        store.removeAll()
        #expect(store.chunkCount == 0)
        let again = append([8, 8], to: &store)
        #expect(store.bytes(at: again, count: 2) == [8, 8])
    }

    @Test("runs of every length, released as a ring drops its oldest, read back as stored", arguments: [1, 3, 16, 64])
    func againstReference(chunkSize: Int) {
        var store = TranscriptBytes(chunkSize: chunkSize)
        var kept: [(start: Int, bytes: [UInt8])] = []
        for round in 0..<2_000 {
            let count = (round * 7 + round / 3) % (chunkSize + 1)
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: round &+ $0) }
            kept.append((append(bytes, to: &store), bytes))
            if kept.count > 7 {
                let dropped = kept.removeFirst()
                store.release(upTo: dropped.start + dropped.bytes.count)
            }
            for run in kept { #expect(store.bytes(at: run.start, count: run.bytes.count) == run.bytes) }
            // What is kept needs at most one chunk more than its runs fill.
            #expect(store.chunkCount <= kept.count + 1)
        }
    }
}
