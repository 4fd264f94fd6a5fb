/// The bytes a connection received that its driver has not consumed yet, for a driver that reads
/// its input as one slice and removes from the front what it consumed (a protocol's own driver, a
/// mail session): the buffer is reused across reads, and each read appends to it after moving the
/// unconsumed rest (bounded by the driver's limit, plus one read) to its front.
package struct UnconsumedInput {
    /// Received bytes; those before `start` are consumed.
    private var buffer: [UInt8] = []
    private var start = 0

    package init() {}

    /// How many bytes wait unconsumed.
    package var count: Int { buffer.count - start }

    /// Adds bytes that arrived.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
        } else if start > 0 {
            buffer.removeSubrange(..<start)
        }
        start = 0
        buffer.append(contentsOf: bytes)
    }

    /// Hands the unconsumed bytes to `read` as one slice of the buffer (no copy); what `read`
    /// removes from the slice's front counts as consumed.
    ///
    /// - Returns: what `read` returned, and whether it consumed anything.
    package mutating func read<Result>(_ read: (inout ArraySlice<UInt8>) -> Result) -> (result: Result, consumed: Bool) {
        var input = buffer[start...]
        let result = read(&input)
        // What is left is the buffer's end (counted, not indexed: an emptied slice may start at 0).
        let consumedTo = min(max(buffer.count - input.count, start), buffer.count)
        let consumed = consumedTo > start
        start = consumedTo
        return (result, consumed)
    }

    /// Takes everything left as consumed.
    package mutating func removeAll() {
        start = buffer.count
    }
}
