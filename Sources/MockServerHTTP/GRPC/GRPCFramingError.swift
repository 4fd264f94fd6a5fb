/// Why a request body is not a sequence of gRPC length-prefixed messages: each case names the
/// message (counted from 1) and what is wrong with it.
package enum GRPCFramingError: Error, Equatable, CustomStringConvertible {
    /// The body ends inside a message's 5-byte prefix: `count` bytes of it came.
    case shortPrefix(message: Int, count: Int)
    /// The prefix's compressed flag is set, but the request names no `grpc-encoding` to undo it.
    case compressedWithoutEncoding(message: Int)
    /// The prefix's compressed flag is neither 0 nor 1.
    case invalidFlag(message: Int, flag: UInt8)
    /// The prefix gives a length past the body's end: `remaining` bytes follow it.
    case lengthPastBody(message: Int, length: Int, remaining: Int)

    package var description: String {
        switch self {
        case .shortPrefix(let message, let count):
            "gRPC message \(message): the body ends inside its 5-byte prefix (\(count) bytes of it)"
        case .compressedWithoutEncoding(let message):
            "gRPC message \(message): its compressed flag is set but the request has no grpc-encoding"
        case .invalidFlag(let message, let flag):
            "gRPC message \(message): its compressed flag is \(flag), not 0 or 1"
        case .lengthPastBody(let message, let length, let remaining):
            "gRPC message \(message): its prefix says \(length) bytes but only \(remaining) follow"
        }
    }
}
