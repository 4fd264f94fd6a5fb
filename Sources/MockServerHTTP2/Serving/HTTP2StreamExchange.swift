@_spi(HotPath) import MockServerCore
import MockServerHTTP

/// One stream of an ``HTTP2ConnectionDriver``: its request as it arrives, then its reply's steps,
/// run on their own (a pause here holds no other stream), and the response bytes that wait for the
/// flow-control windows.
final class HTTP2StreamExchange {
    /// Where the stream's exchange stands.
    enum Phase {
        /// The request's fields and body are arriving.
        case receiving
        /// The responder computes the answer (in a task, or on the loop for an
        /// ``MockServerHTTP/HTTPLoopResponder``); `cancel` ends that work when the stream or the
        /// connection goes first.
        case answering(cancel: () -> Void)
        /// The reply's steps run (``steps``).
        case replying
        /// A step waits (a pause), after which the steps go on.
        case paused
        /// The steps queued ``HTTP2ConnectionDriver/streamQueueLimit`` bytes or more: they wait,
        /// while those bytes go as the windows and the connection's output allow, until half are left.
        case draining
        /// A `hang` fault: nothing more is sent on the stream.
        case hanging
        /// The steps have all run: what is queued goes, then the stream ends.
        case ending
        /// The stream is over (ended, reset or refused).
        case done
    }

    let id: UInt32
    /// What the transcript's entry for the stream's request carries: `HTTP/2` and the stream's id.
    var transcriptExchange: Transcript.Exchange { Transcript.Exchange(protocolName: "HTTP/2", stream: Int(id)) }
    var phase = Phase.receiving
    var fields: [HPACKHeader] = []
    var body: [UInt8] = []
    /// The request, once complete.
    var request: HTTPMockRequest?
    /// The reply's steps still to run, as Core's one interpreter reads them.
    var steps = ReplyInterpreter<HTTPReplyOutput>([])
    /// Response bytes that wait to go as DATA (for the windows, or for room in the connection's
    /// output), shared with the response rather than copied.
    var outgoing = HTTP2OutgoingBytes()
    /// Whether the response's head went out (a second response on the stream is dropped).
    var headSent = false
    /// Whether the request was `HEAD`: no body goes.
    var isHead = false
    /// Set when the response is streamed: its sends are HTTP/1.1 chunks, whose coding comes off.
    var chunks: HTTP2ChunkReader?
    /// Set when the reply sends a response as raw HTTP/1.1 bytes (a script's plain `send`): they are
    /// read as a response, whose head and body go as HEADERS and DATA.
    var rawResponse: HTTPResponseParser?
    /// Fields sent after the body, as a closing HEADERS frame.
    var trailers: HTTPHeaderFields = [:]
    /// Set by a «close»: once the stream's end has gone (all its body, as the windows allow), the
    /// connection closes.
    var closesConnection = false

    init(id: UInt32) {
        self.id = id
    }
}
