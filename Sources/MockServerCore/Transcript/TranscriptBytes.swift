/// The bytes of the transcript's compact entries (their inputs, outputs, peers and response names),
/// one after another in chunks of fixed size, kept first in, first out.
///
/// An entry keeps only where its bytes start and how many there are: no array, string or heap block
/// of its own (about 40 to 80 bytes less each than an `[UInt8]` and a `String`). Offsets count every
/// byte ever stored, so they do not move as the oldest chunks are freed. A run of bytes never
/// straddles two chunks: one that does not fit in the rest of the last chunk starts the next
/// (so a run is at most ``chunkSize`` bytes; longer ones are kept by their entries, not here).
/// The first chunk grows as an ordinary array, so that a small transcript stays small; each later
/// one is allocated whole once.
package struct TranscriptBytes {
    /// The bytes one chunk holds, and the longest run that can be stored.
    package let chunkSize: Int
    /// The kept chunks, oldest first; the last is being filled.
    private var chunks: [[UInt8]] = []
    /// The offset of the first kept chunk's first byte.
    private var base = 0
    /// The offset the next byte stored gets.
    package private(set) var end = 0

    /// An empty store of chunks of `chunkSize` bytes (at least 1).
    package init(chunkSize: Int = 32 << 10) {
        self.chunkSize = max(1, chunkSize)
    }

    /// How many chunks are kept (for tests).
    package var chunkCount: Int { chunks.count }

    /// Stores `first` then `second` as one run and returns the offset of its first byte. Their
    /// counts together must be at most ``chunkSize``.
    @inline(__always)
    package mutating func append(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0)) -> Int {
        let count = first.count + second.count
        precondition(count <= chunkSize, "a run longer than a chunk")
        if chunks.isEmpty {
            base = end
            startChunk(first: true)
        } else if end - base - (chunks.count - 1) * chunkSize + count > chunkSize {
            end = base + chunks.count * chunkSize
            startChunk(first: false)
        }
        let start = end
        chunks[chunks.count - 1].append(contentsOf: first)
        if !second.isEmpty { chunks[chunks.count - 1].append(contentsOf: second) }
        end += count
        return start
    }

    /// Begins a chunk: the very first grows as needed; a later one is made whole at once.
    @inline(never)
    private mutating func startChunk(first: Bool) {
        var chunk: [UInt8] = []
        if !first { chunk.reserveCapacity(chunkSize) }
        chunks.append(chunk)
    }

    /// Calls `body` with the `count` bytes stored at `start`, which must still be kept.
    package func withBytes<Result>(at start: Int, count: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        // An empty run may start where its chunk ends: it reads nothing.
        if count == 0 { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        let offset = start - base
        precondition(offset >= 0 && start + count <= end, "bytes no longer kept")
        let index = offset / chunkSize
        let from = offset - index * chunkSize
        return try chunks[index].withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[from..<(from + count)])) }
    }

    /// A copy of the `count` bytes stored at `start`.
    package func bytes(at start: Int, count: Int) -> [UInt8] {
        withBytes(at: start, count: count) { [UInt8]($0) }
    }

    /// The `count` bytes stored at `start` decoded as UTF-8 (what was stored from a string).
    package func string(at start: Int, count: Int) -> String {
        withBytes(at: start, count: count) { String(decoding: $0, as: UTF8.self) }
    }

    /// Frees the chunks whose every byte lies before `offset`: nothing before it will be read again.
    package mutating func release(upTo offset: Int) {
        guard !chunks.isEmpty, base + chunkSize <= offset else { return }
        var freed = 0
        while freed < chunks.count, base + chunkSize <= offset {
            freed += 1
            base += chunkSize
        }
        chunks.removeFirst(freed)
    }

    /// Frees every chunk.
    package mutating func removeAll() {
        chunks.removeAll()
        base = end
    }
}
