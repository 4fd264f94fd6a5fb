import MockServerCore
import MockServerHTTP
import MockServerHTTP2

/// One request to an `h2c` upstream, on a connection of its own and on the server's loop: the
/// ``HTTP2ClientExchange`` decides what is sent and read; this driver does the I/O, and closes the
/// connection once the response is complete.
final class HTTP2UpstreamDriver: StreamDriver {
    /// Where the connection is.
    private enum State {
        case exchanging(UpstreamExchange, HTTP2ClientExchange)
        case closed
    }

    private var state: State

    init(_ exchange: UpstreamExchange, request: HTTP2ClientExchange) {
        state = .exchanging(exchange, request)
    }

    func opened(_ connection: StreamConnection) -> [StreamStep] {
        guard case .exchanging(let exchange, var request) = state else { return [] }
        exchange.started = MonotonicClock.now()
        let bytes = request.start()
        state = .exchanging(exchange, request)
        return [.send(bytes)]
    }

    func received(_ bytes: UnsafeRawBufferPointer, on connection: StreamConnection) {
        guard case .exchanging(let exchange, var request) = state else { return }
        exchange.answered = true
        do {
            let reply = try request.receive(Array(bytes))
            guard request.receivedBodyCount <= exchange.maximumBodyLength else {
                state = .closed
                exchange.refuseBody(received: request.receivedBodyCount, closing: connection)
                return
            }
            state = .exchanging(exchange, request)
            if !reply.isEmpty { connection.sendNow(reply) }
        } catch {
            state = .closed
            exchange.finish(.failure(.badResponse(address: exchange.address.description, reason: "HTTP/2 \(error)")))
            connection.close(.failed("\(error)"))
        }
    }

    func next(on connection: StreamConnection, inputEnded: Bool) -> DriverDecision {
        guard case .exchanging(let exchange, let request) = state, let response = request.response else {
            return inputEnded ? .finish(.peerClosed) : .needInput
        }
        state = .closed
        let elapsed = Duration.nanoseconds(Int64(MonotonicClock.now() &- exchange.started))
        connection.record(.note(Transcript.Note(kind: "upstream-response", text: "<- HTTP/2 \(response.status), \(response.body.count) body bytes",
                                               bytes: response.body.count)))
        exchange.finish(.success(UpstreamResponse(status: response.status, reason: HTTPMockResponse.standardReason(for: response.status),
                                                  headers: Self.headers(response.headers), body: response.body, elapsed: elapsed,
                                                  trailers: Self.headers(response.trailers))))
        return .finish(.finished("upstream response complete"))
    }

    func closed(_ connection: StreamConnection, reason: Transcript.CloseReason) {
        guard case .exchanging(let exchange, _) = state else { return }
        state = .closed
        let words = if case .failed(let text) = reason { text } else { "\(reason)" }
        exchange.finish(.failure(.badResponse(address: exchange.address.description, reason: "the HTTP/2 connection closed before the answer: \(words)")))
    }

    /// HPACK's fields as HTTP's headers.
    private static func headers(_ fields: [HPACKHeader]) -> HTTPHeaderFields {
        var headers = HTTPHeaderFields()
        for field in fields { headers.add(name: String(decoding: field.name, as: UTF8.self), value: String(decoding: field.value, as: UTF8.self)) }
        return headers
    }
}
