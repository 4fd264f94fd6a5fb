/// Reads a gRPC request body's length-prefixed messages as its bytes arrive, in pieces of any size:
/// a message comes out once all of its bytes did. Pure code. A message longer than the limit is
/// refused at its prefix, before its bytes are held, so that no client decides how much is held.
package struct GRPCMessageReader: Sendable {
    /// Bytes of the message (or prefix) not yet complete.
    private var pending: [UInt8] = []
    /// Messages read so far (numbering the next one in errors).
    package private(set) var count = 0
    /// The longest message taken.
    package let maximumLength: Int
    /// Whether a message flagged compressed is taken (the request gave a `grpc-encoding`).
    private let compresses: Bool

    /// The bytes read but not yet part of a whole message.
    package var heldByteCount: Int { pending.count }

    /// A reader of messages at most `maximumLength` long; `encoding` is the request's `grpc-encoding`.
    package init(maximumLength: Int, encoding: String?) {
        self.maximumLength = maximumLength
        compresses = encoding.map { !$0.isEmpty && $0.lowercased() != "identity" } ?? false
    }

    /// What the reader found wrong.
    package enum Failure: Error, Equatable, CustomStringConvertible {
        /// The body broke the framing (``GRPCFramingError``).
        case framing(GRPCFramingError)
        /// A message longer than ``maximumLength`` (gRPC's `RESOURCE_EXHAUSTED`).
        case tooLong(message: Int, length: Int, limit: Int)

        package var description: String {
            switch self {
            case .framing(let error): error.description
            case .tooLong(let message, let length, let limit):
                "gRPC message \(message) is \(length) bytes, more than the \(limit) the server takes"
            }
        }
    }

    /// The messages `bytes` completes, in order, each without its prefix.
    package mutating func read(_ bytes: [UInt8]) throws(Failure) -> [[UInt8]] {
        if pending.isEmpty { pending = bytes } else { pending += bytes }
        var messages: [[UInt8]] = []
        var index = 0
        while pending.count - index >= GRPCMessageCodec.prefixSize {
            let number = count + 1
            let flag = pending[index]
            guard flag <= 1 else { throw .framing(.invalidFlag(message: number, flag: flag)) }
            if flag == 1 && !compresses { throw .framing(.compressedWithoutEncoding(message: number)) }
            let length = pending[index + 1 ..< index + 5].reduce(0) { $0 << 8 | Int($1) }
            guard length <= maximumLength else { throw .tooLong(message: number, length: length, limit: maximumLength) }
            let start = index + GRPCMessageCodec.prefixSize
            guard pending.count - start >= length else { break }
            messages.append(Array(pending[start ..< start + length]))
            count += 1
            index = start + length
        }
        if index > 0 { pending.removeFirst(index) }
        return messages
    }

    /// The body ended: an error when it ended inside a message.
    package func finish() throws(Failure) {
        guard !pending.isEmpty else { return }
        let number = count + 1
        if pending.count < GRPCMessageCodec.prefixSize { throw .framing(.shortPrefix(message: number, count: pending.count)) }
        let length = pending[1 ..< 5].reduce(0) { $0 << 8 | Int($1) }
        throw .framing(.lengthPastBody(message: number, length: length, remaining: pending.count - GRPCMessageCodec.prefixSize))
    }
}
