extension Transcript {
    /// Why a connection was closed.
    public enum CloseReason: Sendable, Hashable, CustomStringConvertible {
        /// The peer finished sending and everything owed to it was sent.
        case peerClosed
        /// The peer reset or abandoned the connection.
        case peerVanished
        /// The peer asked for the connection to end after the answer: an HTTP/1.0 request without
        /// `Connection: keep-alive`, or a request with `Connection: close`.
        case closeRequested
        /// A `«close»` command.
        case script
        /// A `«reset»` command: the connection was reset (RST).
        case resetByScript
        /// An input matched no response and the set has no fallback.
        case unmatchedInput
        /// An input unit was longer than the limit.
        case inputTooLong(limit: Int)
        /// The input could not be framed (not HTTP, say).
        case malformedInput(String)
        /// The connection's driver finished its work and closed it, for the reason given in a few
        /// words: FTP's data connections close with ``transferComplete`` ("transfer complete").
        case finished(String)
        /// A defence against a hostile peer ended the connection, for the reason given: HTTP/2's
        /// flood defences (too many resets, too many frames that carry nothing, a window left at
        /// zero), which send GOAWAY ENHANCE_YOUR_CALM first.
        case defence(String)
        /// The server was stopped.
        case serverStopped
        /// A system call failed.
        case failed(String)

        /// A few words for logs and transcripts.
        public var description: String {
            switch self {
            case .peerClosed: "peer closed"
            case .peerVanished: "peer vanished"
            case .closeRequested: "close requested by peer"
            case .script: "closed by script"
            case .resetByScript: "reset by script"
            case .unmatchedInput: "unmatched input"
            case .inputTooLong(let limit): "input longer than \(limit) bytes"
            case .malformedInput(let reason): "malformed input: \(reason)"
            case .finished(let reason): reason
            case .defence(let reason): "closed by a defence: \(reason)"
            case .serverStopped: "server stopped"
            case .failed(let reason): "failed: \(reason)"
            }
        }
    }
}
