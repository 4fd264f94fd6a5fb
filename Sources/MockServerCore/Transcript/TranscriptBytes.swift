/// The bytes of the transcript's compact entries (their inputs, outputs, peers and response names),
/// one after another in chunks of fixed size, kept first in, first out.
///
/// An entry keeps only where its bytes start and how many there are: no array, string or heap block
/// of its own (about 40 to 80 bytes less each than an `[UInt8]` and a `String`). Offsets count every
/// byte ever stored, so they do not move as the oldest chunks are freed. A run of bytes never
/// straddles two chunks: one that does not fit in the rest of the last chunk starts the next
/// (so a run is at most ``chunkSize`` bytes; longer ones are kept by their entries, not here).
/// Each chunk is raw memory allocated whole once (``TranscriptChunk``); only its written pages are
/// resident, so a small transcript stays small. An append is a bounds check and a `memcpy` through
/// a cursor into the last chunk: no array of its own is touched.
///
/// A value type in name only: copies share their chunks. The transcript keeps one, under its lock.
package struct TranscriptBytes {
    /// The bytes one chunk holds, and the longest run that can be stored.
    package let chunkSize: Int
    /// The kept chunks, oldest first; the last is being filled.
    private var chunks: [TranscriptChunk] = []
    /// The offset of the first kept chunk's first byte.
    private var base = 0
    /// The offset the next byte stored gets.
    package private(set) var end = 0
    /// Where the next byte goes in the last chunk (`nil` while no chunk is kept).
    private var cursor: UnsafeMutableRawPointer?
    /// How many bytes the last chunk has room for after ``cursor``.
    private var room = 0

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
        if count > room { startChunk(for: count) }
        let start = end
        guard let target = cursor else { return start }
        if let from = first.baseAddress { target.copyMemory(from: from, byteCount: first.count) }
        if let from = second.baseAddress { (target + first.count).copyMemory(from: from, byteCount: second.count) }
        cursor = target + count
        room -= count
        end += count
        return start
    }

    /// Begins a chunk for a run of `count` bytes that does not fit in the rest of the last one (or
    /// the first chunk, when none is kept). The rest of the last one is skipped.
    @inline(never)
    private mutating func startChunk(for count: Int) {
        precondition(count <= chunkSize, "a run longer than a chunk")
        if chunks.isEmpty {
            base = end
        } else {
            end = base + chunks.count * chunkSize
        }
        let chunk = TranscriptChunk(capacity: chunkSize)
        chunks.append(chunk)
        cursor = chunk.bytes
        room = chunkSize
    }

    /// Calls `body` with the `count` bytes stored at `start`, which must still be kept.
    package func withBytes<Result>(at start: Int, count: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        // An empty run may start where its chunk ends: it reads nothing.
        if count == 0 { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        let offset = start - base
        precondition(offset >= 0 && start + count <= end, "bytes no longer kept")
        let index = offset / chunkSize
        let from = offset - index * chunkSize
        return try body(UnsafeRawBufferPointer(start: chunks[index].bytes + from, count: count))
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
        if chunks.isEmpty { forgetCursor() }
    }

    /// Frees every chunk.
    package mutating func removeAll() {
        chunks.removeAll()
        base = end
        forgetCursor()
    }

    /// No chunk is kept: the next append starts one.
    private mutating func forgetCursor() {
        cursor = nil
        room = 0
    }
}
