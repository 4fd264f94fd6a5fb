/// gRPC's length-prefixed messages (the gRPC over HTTP/2 protocol's `Length-Prefixed-Message`): a
/// compressed flag byte, the length as 4 big-endian bytes, then the message. Pure code.
package enum GRPCMessageCodec {
    /// The size of a message's prefix.
    package static let prefixSize = 5

    /// `message` with its prefix (not compressed).
    package static func frame(_ message: [UInt8]) -> [UInt8] {
        let length = UInt32(truncatingIfNeeded: message.count)
        var framed: [UInt8] = [0, UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
        framed.append(contentsOf: message)
        return framed
    }

    /// The messages of a request `body`, in order, each without its prefix (a compressed one as it
    /// came).
    ///
    /// - Parameter encoding: the request's `grpc-encoding`; a message flagged compressed needs one
    ///   (`identity` does not count).
    /// - Throws: ``GRPCFramingError`` naming the first message at fault.
    package static func messages(in body: [UInt8], encoding: String?) throws(GRPCFramingError) -> [[UInt8]] {
        let compresses = encoding.map { !$0.isEmpty && $0.lowercased() != "identity" } ?? false
        var messages: [[UInt8]] = []
        var index = body.startIndex
        while index < body.endIndex {
            let number = messages.count + 1
            let left = body.endIndex - index
            guard left >= prefixSize else { throw .shortPrefix(message: number, count: left) }
            let flag = body[index]
            guard flag <= 1 else { throw .invalidFlag(message: number, flag: flag) }
            if flag == 1 && !compresses { throw .compressedWithoutEncoding(message: number) }
            let length = body[index + 1 ..< index + 5].reduce(0) { $0 << 8 | Int($1) }
            let start = index + prefixSize
            guard length <= body.endIndex - start else {
                throw .lengthPastBody(message: number, length: length, remaining: body.endIndex - start)
            }
            messages.append(Array(body[start ..< start + length]))
            index = start + length
        }
        return messages
    }
}
