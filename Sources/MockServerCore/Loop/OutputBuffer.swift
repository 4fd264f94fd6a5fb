/// Bytes waiting to be written to one socket, in order.
///
/// Small consecutive sends are joined into one chunk so that they leave in one `write`. A send of
/// ``keptWholeSize`` bytes or more is kept as it is: the array queued shares its storage with the
/// sender's (a body held once for every connection that sends it), and nothing is copied. The chunk
/// being written is held apart from those after it: an answer usually leaves as one chunk, which then
/// needs no array of chunks, and once everything is written the buffer holds nothing at all (an idle
/// connection keeps neither its last answer's bytes nor an empty array's capacity).
package struct OutputBuffer {
    package init() {}
    /// The chunk being written, from `headOffset`; empty when nothing waits.
    private var head: [UInt8] = []
    /// The chunks after `head`, in order; empty (and without capacity) most of the time.
    private var rest: [[UInt8]] = []
    private var headOffset = 0
    /// Bytes waiting.
    package private(set) var count = 0
    /// The size from which a send is kept as its own chunk rather than joined to others (copied).
    package static let keptWholeSize = 16 * 1024

    package var isEmpty: Bool { count == 0 }

    /// Whether any storage is held (bytes, or an array's capacity): none once everything is written.
    package var holdsStorage: Bool { head.capacity > 0 || rest.capacity > 0 }

    /// Queues bytes after those already waiting.
    package mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        if count == 0 {
            // Shared, not copied: the bytes leave from the caller's storage.
            head = bytes
            headOffset = 0
        } else if let last = rest.indices.last {
            if bytes.count < Self.keptWholeSize, rest[last].count < Self.keptWholeSize {
                rest[last].append(contentsOf: bytes)
            } else {
                rest.append(bytes)
            }
        } else if bytes.count < Self.keptWholeSize, head.count < Self.keptWholeSize {
            head.append(contentsOf: bytes)
        } else {
            rest.append(bytes)
        }
        count += bytes.count
    }

    /// Writes as much as the socket takes.
    ///
    /// - Returns: `nil` when everything went or the socket is full, or the error that stopped it.
    package mutating func write(to socket: Socket) -> SocketCallError? {
        write { socket.write($0) }
    }

    /// Writes as much as `write` takes (a connection's transport).
    ///
    /// - Returns: `nil` when everything went or the receiver is full, or the error that stopped it.
    package mutating func write(_ write: (UnsafeRawBufferPointer) -> Socket.WriteResult) -> SocketCallError? {
        while count > 0 {
            let result = head.withUnsafeBytes { write(UnsafeRawBufferPointer(rebasing: $0[headOffset...])) }
            switch result {
            case .written(let written):
                count -= written
                headOffset += written
                if headOffset == head.count {
                    headOffset = 0
                    if rest.isEmpty {
                        head = []
                    } else {
                        head = rest.removeFirst()
                        // The last chunk taken: the array's capacity goes too.
                        if rest.isEmpty { rest = [] }
                    }
                }
            case .wouldBlock:
                return nil
            case .failed(let error):
                return error
            }
        }
        return nil
    }

    /// Forgets everything waiting.
    package mutating func removeAll() {
        head = []
        rest = []
        headOffset = 0
        count = 0
    }
}
