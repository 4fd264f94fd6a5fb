@_spi(HotPath) import MockServerCore
import MockServerHTTP

/// One stream of an ``HTTP2ConnectionDriver``: its request as it arrives, then its reply's steps,
/// run on their own (a pause here holds no other stream), and the response bytes that wait for the
/// flow-control windows.
final class HTTP2StreamExchange {
    let id: UInt32
    /// What the transcript's entry for the stream's request carries: `HTTP/2` and the stream's id.
    var transcriptExchange: Transcript.Exchange { Transcript.Exchange(protocolName: "HTTP/2", stream: Int(id)) }
    /// Where the exchange stands, and what its response's head and body are (``HTTP2ExchangeState``).
    /// Read freely; changed only through ``changeState(_:)``.
    private(set) var state = HTTP2ExchangeState()
    var fields: [HPACKHeader] = []
    var body: [UInt8] = []
    /// The request, once complete.
    var request: HTTPMockRequest?
    /// The reply's steps still to run, as Core's one interpreter reads them.
    var steps = ReplyInterpreter<HTTPReplyOutput>([])
    /// Response bytes that wait to go as DATA (for the windows, or for room in the connection's
    /// output), shared with the response rather than copied.
    var outgoing = HTTP2OutgoingBytes()
    /// Whether the request was `HEAD`: no body goes (a fact of the request, set with it).
    var isHead = false
    /// Fields sent after the body, as a closing HEADERS frame.
    var trailers: HTTPHeaderFields = [:]
    /// The answer that takes the request's body as it streams in (a gRPC call answered message by
    /// message), when the responder gave one at the request's head.
    var streamingAnswer: (any HTTPStreamingAnswer)?
    /// The request's bytes this stream holds, as counted in its connection's total
    /// (``HTTP2ConnectionDriver``): its body, from its first byte until the stream ends (the
    /// request keeps it while it is answered), or what ``streamingAnswer`` held when last asked.
    var heldBytes = 0
    /// A streaming answer's steps given while earlier ones still ran (a pause, a full queue): they
    /// run next, in order.
    var laterSteps: [ReplyStep<HTTPReplyOutput>] = []

    init(id: UInt32) {
        self.id = id
    }

    /// Changes the state by `change`, the one way it changes: the state is moved out of the exchange
    /// (swapped with a `.done` placeholder: no copy, no retain), changed on the stack, and moved back.
    /// So every access to ``state`` is one load or one store, none spans a change, and none releases
    /// an old payload (a release may run a deinit): the optimiser proves that no access to it nests
    /// in another, and whole-module optimisation drops their run-time exclusivity checks. A change
    /// made in place (`exchange.state.hang()`) releases the old phase inside its access and keeps the
    /// checks on every access to the state: `h2 500 2500` measured 64,990 instructions an answer with
    /// changes made in place (47 checks an answer), 64,329 with this one way (39; BENCHMARKS.md,
    /// "Session 29: HTTP/2 exchange state").
    @inline(__always)
    func changeState<Result>(_ change: (inout HTTP2ExchangeState) -> Result) -> Result {
        var taken = HTTP2ExchangeState(phase: .done)
        swap(&taken, &state)
        defer { swap(&taken, &state) }
        return change(&taken)
    }
}
