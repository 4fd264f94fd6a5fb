/// Why a gRPC-Web answer body is not a run of frames ending in trailers: each case names the frame
/// (counted from 1) and what is wrong with it.
package enum GRPCWebFrameError: Error, Equatable, CustomStringConvertible {
    /// The body ends inside a frame's 5-byte prefix: `count` bytes of it came.
    case shortPrefix(frame: Int, count: Int)
    /// The prefix gives a length past the body's end: `remaining` bytes follow it.
    case lengthPastBody(frame: Int, length: Int, remaining: Int)
    /// A frame follows the trailer frame, which must be the last.
    case afterTrailers(frame: Int)
    /// A line of the trailer frame is not `name:value`.
    case badTrailerLine(frame: Int, line: String)

    package var description: String {
        switch self {
        case .shortPrefix(let frame, let count):
            "gRPC-Web frame \(frame): the body ends inside its 5-byte prefix (\(count) bytes of it)"
        case .lengthPastBody(let frame, let length, let remaining):
            "gRPC-Web frame \(frame): its prefix says \(length) bytes but only \(remaining) follow"
        case .afterTrailers(let frame):
            "gRPC-Web frame \(frame): it follows the trailer frame, which ends the answer"
        case .badTrailerLine(let frame, let line):
            "gRPC-Web frame \(frame): the trailer line \"\(line)\" is not name:value"
        }
    }
}
