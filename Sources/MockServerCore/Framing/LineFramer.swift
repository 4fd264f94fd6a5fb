/// Splits a byte stream into lines: a unit ends at LF, and a CR just before the LF is dropped.
///
/// A line may be at most ``maximumLength`` bytes, terminator excluded; a longer one makes
/// ``next()`` throw ``FramingError/lineTooLong(limit:)`` as soon as the excess is buffered,
/// so a peer that never sends a newline cannot grow the buffer without bound.
package struct LineFramer: InputFramer {
    /// The longest line accepted, in bytes, without its terminator.
    package let maximumLength: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var scanned = 0

    /// Creates a framer accepting lines of at most `maximumLength` bytes (1 MiB by default).
    package init(maximumLength: Int = 1 << 20) {
        self.maximumLength = max(1, maximumLength)
    }

    /// Adds bytes received from the peer.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
            scanned = 0
        } else if start > 65_536 && start * 2 > buffer.count {
            buffer.removeSubrange(0..<start)
            scanned -= start
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Adds bytes received from the peer.
    package mutating func append(_ bytes: some Collection<UInt8>) {
        Array(bytes).withUnsafeBytes { append($0) }
    }

    /// Removes and returns the next line without its terminator, or `nil` when no LF is buffered.
    package mutating func next() throws(FramingError) -> [UInt8]? {
        let newline: Int? = buffer.withUnsafeBufferPointer { bytes in
            var index = scanned
            while index < bytes.count {
                if bytes[index] == 0x0A { return index }
                index += 1
            }
            return nil
        }
        guard let newline else {
            if start == buffer.count {
                // Every line read was taken: the buffer goes, so that an idle connection holds none
                // (the next read makes one anew).
                if buffer.capacity > 0 {
                    buffer = []
                    start = 0
                }
                scanned = start
                return nil
            }
            scanned = buffer.count
            let pending = buffer.count - start
            // A pending line of the limit's length may still be followed by CR then LF.
            if pending > maximumLength + 1 || (pending == maximumLength + 1 && buffer[buffer.count - 1] != 0x0D) {
                throw .lineTooLong(limit: maximumLength)
            }
            return nil
        }
        var end = newline
        if end > start && buffer[end - 1] == 0x0D { end -= 1 }
        guard end - start <= maximumLength else { throw .lineTooLong(limit: maximumLength) }
        let line = Array(buffer[start..<end])
        start = newline + 1
        scanned = start
        return line
    }

    /// Returns the last, unterminated line once the peer has finished sending.
    package mutating func finish() throws(FramingError) -> [UInt8]? {
        if let line = try next() { return line }
        guard start < buffer.count else { return nil }
        var end = buffer.count
        if buffer[end - 1] == 0x0D { end -= 1 }
        guard end - start <= maximumLength else { throw .lineTooLong(limit: maximumLength) }
        let line = Array(buffer[start..<end])
        start = buffer.count
        scanned = start
        return line
    }

    /// How many bytes are buffered and not yet returned.
    package var bufferedCount: Int { buffer.count - start }

    /// Whether a buffer is held (bytes, or an array's capacity): none once every line read was
    /// taken and ``next()`` found no more.
    package var holdsStorage: Bool { buffer.capacity > 0 }
}
