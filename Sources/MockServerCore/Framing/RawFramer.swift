/// One unit per read, as the original MockServer did. Whether two requests arrive in one read, or one
/// request in two, depends on timing: prefer ``LineFramer`` or ``HTTPRequestFramer``.
package struct RawFramer: InputFramer {
    private var pending: [[UInt8]] = []
    private var cursor = 0

    /// Creates a framer.
    package init() {}

    /// Keeps the bytes of one read as one unit.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if cursor == pending.count {
            pending.removeAll(keepingCapacity: true)
            cursor = 0
        }
        if !bytes.isEmpty { pending.append(Array(bytes)) }
    }

    /// The next read's bytes.
    package mutating func next() throws(FramingError) -> [UInt8]? {
        guard cursor < pending.count else { return nil }
        defer { cursor += 1 }
        return pending[cursor]
    }

    /// The next read's bytes; nothing is ever left over.
    package mutating func finish() throws(FramingError) -> [UInt8]? {
        try next()
    }

    /// How many bytes are buffered and not yet returned.
    package var bufferedCount: Int { pending[cursor...].reduce(0) { $0 + $1.count } }
}
