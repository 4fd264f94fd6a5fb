/// Bytes waiting to be written to one socket, in order.
///
/// Small consecutive sends are joined into one chunk so that they leave in one `write`. A send of
/// ``keptWholeSize`` bytes or more is kept as it is: the array queued shares its storage with the
/// sender's (a body held once for every connection that sends it), and nothing is copied.
package struct OutputBuffer {
    package init() {}
    private var chunks: [[UInt8]] = []
    private var headOffset = 0
    /// Bytes waiting.
    package private(set) var count = 0
    /// The size from which a send is kept as its own chunk rather than joined to others (copied).
    package static let keptWholeSize = 16 * 1024

    package var isEmpty: Bool { count == 0 }

    /// Queues bytes after those already waiting.
    package mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        count += bytes.count
        if let last = chunks.indices.last, bytes.count < Self.keptWholeSize, chunks[last].count < Self.keptWholeSize {
            chunks[last].append(contentsOf: bytes)
        } else {
            chunks.append(bytes)
        }
    }

    /// Writes as much as the socket takes.
    ///
    /// - Returns: `nil` when everything went or the socket is full, or the error that stopped it.
    package mutating func write(to socket: Socket) -> SocketError? {
        write { socket.write($0) }
    }

    /// Writes as much as `write` takes (a connection's transport).
    ///
    /// - Returns: `nil` when everything went or the receiver is full, or the error that stopped it.
    package mutating func write(_ write: (UnsafeRawBufferPointer) -> Socket.WriteResult) -> SocketError? {
        while !chunks.isEmpty {
            let result = chunks[0].withUnsafeBytes { write(UnsafeRawBufferPointer(rebasing: $0[headOffset...])) }
            switch result {
            case .written(let written):
                count -= written
                headOffset += written
                if headOffset == chunks[0].count {
                    chunks.removeFirst()
                    headOffset = 0
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
        chunks.removeAll()
        headOffset = 0
        count = 0
    }
}
