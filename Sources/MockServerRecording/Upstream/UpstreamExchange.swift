import MockServerCore
import MockServerHTTP
import MockServerHTTP2
import MockServerTLS

/// One request on its way to the upstream and the code that takes its outcome, exactly once.
final class UpstreamExchange {
    /// The request's bytes, dropped once the outcome is known.
    private(set) var bytes: [UInt8]
    let method: String
    let address: NetworkAddress
    let timeout: Duration
    /// The longest response body taken: past it the exchange fails (``UpstreamError/tooLarge(address:limit:)``)
    /// and the connection closes, so that one answer costs at most this much memory.
    let maximumBodyLength: Int
    /// When the outcome is due at the latest (monotonic nanoseconds): `timeout` after the exchange
    /// was made.
    let deadline: UInt64
    /// The client context and server name, for an https upstream.
    let tls: (context: TLSClientContext, serverName: String)?
    /// The request as HTTP/2 sends it: for an `h2c` upstream (``bytes`` is then empty), or for an
    /// `https` one that may choose `h2` through ALPN (``bytes`` are sent when it does not); `nil` for HTTP/1.1 only.
    let http2: HTTP2ClientExchange?
    /// Who takes the outcome; `nil` once it has.
    private var taker: Taker?
    /// When the request's first byte went out.
    var started: UInt64 = 0
    /// Whether any of the response has come (a reused connection that closes before that is
    /// retried on a new one).
    var answered = false

    init(bytes: [UInt8], method: String, address: NetworkAddress, timeout: Duration, maximumBodyLength: Int = HTTPRecorder.defaultMaximumBodySize,
         tls: (context: TLSClientContext, serverName: String)? = nil, http2: HTTP2ClientExchange? = nil, taker: Taker) {
        self.bytes = bytes
        self.maximumBodyLength = maximumBodyLength
        self.http2 = http2
        self.method = method
        self.address = address
        self.timeout = timeout
        self.deadline = MonotonicClock.now() &+ MonotonicClock.nanoseconds(timeout)
        self.tls = tls
        self.taker = taker
    }

    /// Who takes an exchange's outcome.
    enum Taker {
        /// Code that takes it (a task's continuation resumed).
        case closure((Result<UpstreamResponse, UpstreamError>) -> Void)
        /// An object that takes it: on the loop, with no closure made per request.
        case object(any UpstreamOutcomeTaker)
    }

    /// Whether the outcome is still to come.
    var isPending: Bool { taker != nil }

    /// Fails the exchange as overdue (its ``timeout`` passed with no answer) and closes `connection`,
    /// which carried it.
    func timeOut(closing connection: StreamConnection?) {
        finish(.failure(.timedOut(address: address.description, seconds: timeout.inSeconds)))
        connection?.close(.failed("the upstream did not answer in time"))
    }

    /// Fails the exchange because its answer's body passed ``maximumBodyLength`` (with `received`
    /// bytes of it read), and closes `connection`, which carried it.
    func refuseBody(received: Int, closing connection: StreamConnection) {
        connection.log(.warning, "upstream answer body past \(maximumBodyLength) bytes (\(received) read): refused")
        finish(.failure(.tooLarge(address: address.description, limit: maximumBodyLength)))
        connection.close(.failed("the upstream's answer is longer than the recorder's limit of \(maximumBodyLength) bytes"))
    }

    /// Hands over the outcome; later calls do nothing.
    func finish(_ result: Result<UpstreamResponse, UpstreamError>) {
        let current = taker
        taker = nil
        bytes = []
        switch current {
        case .closure(let body): body(result)
        case .object(let object): object.take(result)
        case nil: break
        }
    }
}
