import MockServerCore
import MockServerHTTP
import MockServerTLS

/// One connection to the upstream, on the server's loop: it sends a request, reads the response
/// as a client does, and then waits in its ``UpstreamPool`` for the next request (keep-alive).
///
/// An exchange that may go as HTTP/2 to an https upstream offers `h2` and `http/1.1` through ALPN
/// and waits for the handshake: when the upstream chooses `h2`, an ``HTTP2UpstreamDriver`` carries
/// the exchange and the connection closes after it; otherwise it goes as HTTP/1.1, as any other.
final class UpstreamDriver: StreamDriver {
    /// Where the connection stands.
    private enum State {
        /// Being made (and, when ALPN decides the protocol, its handshake done); the exchange goes
        /// out once it is.
        case connecting(UpstreamExchange)
        /// The upstream chose `h2` through ALPN: this driver carries the exchange to the end.
        case http2(UpstreamExchange, HTTP2UpstreamDriver)
        /// A request was sent; its response is being read.
        case exchanging(UpstreamExchange, HTTPResponseParser, Response)
        /// In the pool, waiting for a request.
        case idle
        /// Closed.
        case closed
    }

    /// The response as it arrives.
    private struct Response {
        var head: HTTPResponseHead?
        var body: [UInt8] = []
        var complete = false
    }

    private var state: State
    private weak var pool: UpstreamPool?
    private unowned let loop: EventLoop
    /// Whether a check of the current exchange's deadline is scheduled: one at a time, however many
    /// exchanges the connection carries, so that the loop holds a timer per connection, not one per
    /// request of the last `timeout` (90,000 of them at 3,000 requests a second and 30 s).
    private var deadlineCheckScheduled = false
    private(set) weak var connection: StreamConnection?
    /// How many exchanges ran on the connection (a reused one is retried when it was closed under us).
    private(set) var exchanges = 0

    /// The upstream's address.
    let address: NetworkAddress
    /// The longest upstream response head (or chunk-size or trailer line) read, as a request's
    /// head: past it the exchange fails with a 502 rather than the recorder buffering without end.
    static let maximumHeadLength = 64 * 1024
    /// What an exchange that may go as HTTP/2 offers through ALPN.
    private static let applicationProtocols = ["h2", "http/1.1"]

    init(connecting exchange: UpstreamExchange, pool: UpstreamPool, loop: EventLoop) {
        state = .connecting(exchange)
        address = exchange.address
        self.pool = pool
        self.loop = loop
        watchDeadline(of: exchange)
    }

    func attach(_ connection: StreamConnection) { self.connection = connection }

    /// Whether the connection waits in the pool, open.
    var isIdle: Bool {
        if case .idle = state, let connection, !connection.isClosed { return true }
        return false
    }

    /// Sends `exchange` on this idle connection.
    func send(_ exchange: UpstreamExchange) {
        guard let connection else { return }
        begin(exchange)
        watchDeadline(of: exchange)
        connection.send(exchange.bytes)
        connection.resume()
    }

    private func begin(_ exchange: UpstreamExchange) {
        exchanges += 1
        exchange.started = MonotonicClock.now()
        state = .exchanging(exchange, HTTPResponseParser(requestMethod: exchange.method, maximumHeadLength: Self.maximumHeadLength), Response())
    }

    func opened(_ connection: StreamConnection) -> [StreamStep] {
        self.connection = connection
        guard case .connecting(let exchange) = state else { return [] }
        if let tls = exchange.tls {
            let offersHTTP2 = exchange.http2 != nil
            do {
                try connection.startTLSClient(context: tls.context, serverName: tls.serverName,
                                              applicationProtocols: offersHTTP2 ? Self.applicationProtocols : [],
                                              handshakeDone: offersHTTP2 ? { [weak self, weak connection] handshake in
                                                  guard let self, let connection else { return }
                                                  negotiated(handshake.applicationProtocol, on: connection)
                                              } : nil)
            } catch {
                state = .closed
                exchange.finish(.failure(.connectionFailed(address: exchange.address.description, reason: "TLS: \(error)")))
                return [.close(.failed("TLS: \(error)"))]
            }
            // The protocol is known once the handshake is done: ``negotiated(_:on:)`` sends then.
            if offersHTTP2 { return [] }
        }
        begin(exchange)
        return [.send(exchange.bytes)]
    }

    /// Sends the exchange that waited for the handshake, as HTTP/2 when the upstream chose `h2`
    /// (`chosen`), else as HTTP/1.1.
    private func negotiated(_ chosen: String?, on connection: StreamConnection) {
        guard case .connecting(let exchange) = state, exchange.isPending else { return }
        if chosen == "h2", let request = exchange.http2 {
            let driver = HTTP2UpstreamDriver(exchange, request: request)
            state = .http2(exchange, driver)
            for case .send(let bytes) in driver.opened(connection) { connection.sendNow(bytes) }
        } else {
            pool?.declinedHTTP2(address)
            begin(exchange)
            connection.sendNow(exchange.bytes)
        }
    }

    func received(_ bytes: UnsafeRawBufferPointer, on connection: StreamConnection) {
        if case .http2(_, let driver) = state { return driver.received(bytes, on: connection) }
        guard case .exchanging = state else {
            // Bytes nobody asked for: the connection cannot be trusted with another request.
            connection.log(.debug, "upstream sent \(bytes.count) bytes outside a response; closing")
            state = .closed
            connection.close(.failed("unexpected bytes from the upstream"))
            return
        }
        // The parser and the response are moved out of the state while they change, so that their
        // buffers are not copied (they would be shared with the state's copy).
        guard case .exchanging(let exchange, var parser, var response) = takeState() else { return }
        exchange.answered = true
        do {
            apply(try parser.append(bytes), to: &response)
            guard response.body.count <= exchange.maximumBodyLength else {
                state = .closed
                exchange.refuseBody(received: response.body.count, closing: connection)
                return
            }
            state = .exchanging(exchange, parser, response)
        } catch {
            state = .closed
            exchange.finish(.failure(.badResponse(address: exchange.address.description, reason: "\(error)")))
            connection.close(.failed("\(error)"))
        }
    }

    private func apply(_ events: [HTTPResponseParser.Event], to response: inout Response) {
        for event in events {
            switch event {
            case .head(let head): response.head = head
            // The first piece is taken as it is, not copied into an empty array.
            case .body(let bytes): if response.body.isEmpty { response.body = bytes } else { response.body += bytes }
            case .end: response.complete = true
            }
        }
    }

    func next(on connection: StreamConnection, inputEnded: Bool) -> DriverDecision {
        switch state {
        case .connecting, .closed:
            return inputEnded ? .finish(.peerClosed) : .needInput
        case .idle:
            return inputEnded ? .finish(.peerClosed) : .wait
        case .http2(_, let driver):
            return driver.next(on: connection, inputEnded: inputEnded)
        case .exchanging:
            break
        }
        guard case .exchanging(let exchange, var parser, var response) = takeState() else { return .wait }
        if inputEnded && !response.complete {
            do {
                apply(try parser.finish(), to: &response)
            } catch {
                state = .closed
                fail(exchange, reason: "\(error)", connection: connection)
                return .finish(.peerClosed)
            }
        }
        guard response.complete, let head = response.head else {
            state = .exchanging(exchange, parser, response)
            return inputEnded ? .finish(.peerClosed) : .needInput
        }
        let elapsed = Duration.nanoseconds(Int64(MonotonicClock.now() &- exchange.started))
        let keepAlive = !inputEnded && head.version == "HTTP/1.1" && !parser.closesConnection
        state = keepAlive ? .idle : .closed
        let text = String(joining: "<- ", String(head.status), " ", head.reason, ", ", String(response.body.count), " body bytes")
        connection.record(.note(Transcript.Note(kind: "upstream-response", text: text, bytes: response.body.count)))
        // Back in the pool before the outcome is handed over: the client's reply is carried out at
        // once, and a request the client had sent behind it may take this connection then.
        if keepAlive { pool?.release(self) }
        exchange.finish(.success(UpstreamResponse(status: head.status, reason: head.reason, headers: head.headers,
                                                  body: response.body, elapsed: elapsed, trailers: parser.trailers, fieldIDs: head.fieldIDs)))
        guard keepAlive else { return .finish(.finished("upstream response complete")) }
        // A request sent on this connection meanwhile is under way: its answer is read.
        if case .exchanging = state { return .needInput }
        return .wait
    }

    /// The state, with ``State/idle`` left in its place: moved out rather than copied, so that what
    /// it holds is neither retained for the copy nor released with the original.
    private func takeState() -> State {
        var taken = State.idle
        swap(&taken, &state)
        return taken
    }

    func closed(_ connection: StreamConnection, reason: Transcript.CloseReason) {
        let previous = state
        state = .closed
        pool?.forget(self)
        switch previous {
        case .connecting(let exchange):
            exchange.finish(.failure(.connectionFailed(address: exchange.address.description, reason: Self.words(reason))))
        case .exchanging(let exchange, _, _):
            fail(exchange, reason: Self.words(reason), connection: connection)
        case .http2(_, let driver):
            driver.closed(connection, reason: reason)
        case .idle, .closed:
            break
        }
    }

    /// Fails `exchange`, or retries it on a new connection when this reused one closed before any
    /// of the answer came (the upstream had just given up on it).
    private func fail(_ exchange: UpstreamExchange, reason: String, connection: StreamConnection) {
        guard exchange.isPending else { return }
        if !exchange.answered && exchanges > 1, let pool {
            pool.open(for: exchange)
            return
        }
        exchange.finish(.failure(.badResponse(address: exchange.address.description, reason: reason)))
    }

    /// Checks at `exchange`'s deadline whether the exchange then under way (it or a later one) is
    /// overdue, unless a check is scheduled already.
    private func watchDeadline(of exchange: UpstreamExchange) {
        guard !deadlineCheckScheduled else { return }
        deadlineCheckScheduled = true
        loop.schedule(at: exchange.deadline) { [weak self] in self?.checkDeadline() }
    }

    /// Fails the exchange under way when its deadline has passed, and closes the connection;
    /// otherwise checks again at its deadline.
    private func checkDeadline() {
        deadlineCheckScheduled = false
        let exchange: UpstreamExchange
        switch state {
        case .connecting(let current), .exchanging(let current, _, _), .http2(let current, _): exchange = current
        case .idle, .closed: return
        }
        guard exchange.isPending else { return }
        guard MonotonicClock.now() >= exchange.deadline else {
            watchDeadline(of: exchange)
            return
        }
        exchange.timeOut(closing: connection)
    }

    private static func words(_ reason: Transcript.CloseReason) -> String {
        if case .failed(let text) = reason { return text }
        return "\(reason)"
    }
}
