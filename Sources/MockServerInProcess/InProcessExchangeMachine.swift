import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServerCore
import MockServerHTTP

/// The state of one in-process load as a value: events in (the load starts, its connection
/// opens, the mock writes, the loading system cancels, the request times out), actions out (open a
/// connection, close or abandon one, keep cookies, call the client). ``InProcessExchange`` holds it
/// under its one lock and does the I/O; this type does none, so it is tested without URLSession.
///
/// `Connection` is what an action closes or abandons: a `MemoryConnection` in the exchange, any
/// value in a test.
struct InProcessExchangeMachine<Connection: Sendable>: Sendable {
    /// Where the load is.
    enum State: Sendable {
        /// Not started yet.
        case idle
        /// A connection carries the request (a redirect followed here opens the next).
        case loading(Loading)
        /// Finished, failed, or handed a redirect to the loading system: nothing more reaches the client.
        case done
        /// The loading system stopped the load: the client hears nothing more, not even calls
        /// made for it before that were still on their way.
        case cancelled
    }

    /// A load under way on one connection.
    struct Loading: Sendable {
        /// Which connection of the load this is: 0, then one more for each redirect followed here.
        var generation: Int
        /// The request this connection carries.
        var request: URLRequest
        /// The connection, once it exists.
        var connection: Connection?
        /// Reads the mock's bytes as a client reads a response.
        var parser: HTTPResponseParser
        /// Body bytes kept for one `data` call at the end, unless the client takes them piece by piece.
        var body: [UInt8] = []
        /// Redirects followed so far.
        var redirects: Int
        /// When the connection last brought something (``MonotonicClock`` nanoseconds).
        var lastActivity: UInt64

        init(generation: Int, request: URLRequest, redirects: Int, now: UInt64) {
            self.generation = generation
            self.request = request
            self.parser = HTTPResponseParser(requestMethod: request.httpMethod ?? "GET")
            self.redirects = redirects
            self.lastActivity = now
        }
    }

    /// A call of the loading system's client, in order.
    enum ClientCall: Sendable, Equatable {
        /// The response head, for a request to `url`.
        case response(HTTPResponseHead, url: URL)
        /// Body bytes.
        case data([UInt8])
        /// The load finished.
        case finished
        /// The load failed.
        case failed(URLError)
        /// The response to `url` redirects to `next`, which the loading system loads (Apple's); this load ends.
        case redirected(to: URLRequest, head: HTTPResponseHead, url: URL)
    }

    /// What the exchange does, in order.
    enum Action: Sendable {
        /// Opens connection `generation` to the mock for `request` (a redirect followed here).
        case open(URLRequest, generation: Int)
        /// Closes a connection that is finished with.
        case close(Connection)
        /// Abandons a connection: the mock's pending pauses and answers for it are cancelled.
        case abandon(Connection)
        /// Keeps the cookies of `head`, the response to `request` for `url`.
        case storeCookies(HTTPResponseHead, request: URLRequest, url: URL)
        /// Calls the client.
        case call(ClientCall)
    }

    /// Where the load is.
    private(set) var state = State.idle
    /// Each piece of the body goes to the client as it comes (else one `data` at the end).
    let piecesToClient: Bool
    /// A redirect is followed here, as URLSession follows one from a server (FoundationNetworking,
    /// which cannot take one from a URLProtocol), rather than handed to the loading system.
    let followsRedirects: Bool
    /// Whether a redirect's target goes to this load's mock (else the redirect response is the answer).
    let accepts: @Sendable (URLRequest) -> Bool

    init(piecesToClient: Bool, followsRedirects: Bool, accepts: @escaping @Sendable (URLRequest) -> Bool) {
        self.piecesToClient = piecesToClient
        self.followsRedirects = followsRedirects
        self.accepts = accepts
    }

    /// Whether the loading system cancelled the load.
    var isCancelled: Bool {
        if case .cancelled = state { true } else { false }
    }

    /// How long connection `generation` has brought nothing, in seconds at `now`; `nil` once that
    /// connection no longer carries the load.
    func idleTime(generation: Int, now: UInt64) -> TimeInterval? {
        guard case .loading(let loading) = state, loading.generation == generation else { return nil }
        return TimeInterval(now &- loading.lastActivity) / 1e9
    }

    /// The load starts with `request`; `false` when it was started, ended or cancelled already.
    mutating func start(_ request: URLRequest, now: UInt64) -> Bool {
        guard case .idle = state else { return false }
        state = .loading(Loading(generation: 0, request: request, redirects: 0, now: now))
        return true
    }

    /// Connection `generation` exists: kept to close; abandoned at once when the load was cancelled meanwhile.
    mutating func connected(_ connection: Connection, generation: Int) -> [Action] {
        if isCancelled { return [.abandon(connection)] }
        guard var loading = takeLoading(generation: generation) else { return [] }
        loading.connection = connection
        state = .loading(loading)
        return []
    }

    /// The mock's connection `generation` wrote, stopped or broke off at `now`.
    mutating func received(_ event: MemoryTransport.Event, generation: Int, now: UInt64) -> [Action] {
        guard var loading = takeLoading(generation: generation) else { return [] }
        loading.lastActivity = now
        let events: [HTTPResponseParser.Event]
        do {
            switch event {
            case .bytes(let bytes):
                events = try loading.parser.append(bytes)
            case .endOfOutput, .closed:
                events = try loading.parser.finish()
            case .reset:
                state = .loading(loading)
                if loading.parser.isComplete { return [] }
                return fail(URLError(.networkConnectionLost, userInfo: [NSLocalizedDescriptionKey: "MockServer in-process: the connection was reset"]))
            }
        } catch let error as HTTPResponseParser.ParseError {
            state = .loading(loading)
            return fail(Self.failure(for: error))
        } catch {
            state = .loading(loading)
            return fail(URLError(.badServerResponse))
        }
        var actions: [Action] = []
        for event in events {
            switch event {
            case .head(let head):
                guard let url = loading.request.url else {
                    state = .loading(loading)
                    return actions
                }
                actions.append(.storeCookies(head, request: loading.request, url: url))
                if let redirect = InProcessRedirect(head, from: url) {
                    return actions + redirecting(loading, to: redirect.request(following: loading.request), head: head, url: url, now: now)
                }
                actions.append(.call(.response(head, url: url)))
            case .body(let bytes):
                if piecesToClient { actions.append(.call(.data(bytes))) } else { loading.body.append(contentsOf: bytes) }
            case .end:
                state = .done
                if let connection = loading.connection { actions.append(.close(connection)) }
                if !loading.body.isEmpty { actions.append(.call(.data(loading.body))) }
                return actions + [.call(.finished)]
            }
        }
        state = .loading(loading)
        return actions
    }

    /// The load fails with `error` (unless it ended already); `abandon`: its connection is abandoned too.
    mutating func fail(_ error: URLError, abandon: Bool = true) -> [Action] {
        switch state {
        case .done, .cancelled:
            return []
        case .idle:
            state = .done
            return [.call(.failed(error))]
        case .loading(let loading):
            state = .done
            let abandoned: [Action] = abandon ? loading.connection.map { [.abandon($0)] } ?? [] : []
            return abandoned + [.call(.failed(error))]
        }
    }

    /// The loading system stopped the load.
    mutating func cancel() -> [Action] {
        let connection: Connection? = if case .loading(let loading) = state { loading.connection } else { nil }
        state = .cancelled
        return connection.map { [.abandon($0)] } ?? []
    }

    /// The load of connection `generation` (any when `nil`), taken out of ``state``, which is left
    /// `.done` until the caller puts the load back: while it is out, nothing else holds its
    /// parser's and body's buffers, so changing them does not copy them.
    private mutating func takeLoading(generation: Int?) -> Loading? {
        guard case .loading(let loading) = state, generation == nil || loading.generation == generation else { return nil }
        state = .done
        return loading
    }

    /// The response `head` to `loading`'s request redirects to `next`: followed here on a new
    /// connection, or handed to the loading system.
    private mutating func redirecting(_ loading: Loading, to next: URLRequest, head: HTTPResponseHead, url: URL, now: UInt64) -> [Action] {
        let closed: [Action] = loading.connection.map { [.close($0)] } ?? []
        guard followsRedirects else {
            state = .done
            return closed + [.call(.redirected(to: next, head: head, url: url))]
        }
        guard accepts(next) else {
            // A target no mock takes: the redirect response is the answer, as with a server.
            state = .done
            return closed + [.call(.response(head, url: url)), .call(.finished)]
        }
        guard loading.redirects < InProcessRedirect.limit else {
            state = .done
            return closed + [.call(.failed(URLError(.httpTooManyRedirects)))]
        }
        let generation = loading.generation + 1
        state = .loading(Loading(generation: generation, request: next, redirects: loading.redirects + 1, now: now))
        return closed + [.open(next, generation: generation)]
    }

    /// The error URLSession gives for a response that broke off.
    private static func failure(for error: HTTPResponseParser.ParseError) -> URLError {
        switch error {
        case .malformed(let what):
            URLError(.badServerResponse, userInfo: [NSLocalizedDescriptionKey: "MockServer in-process: \(what)"])
        case .truncated:
            URLError(.networkConnectionLost, userInfo: [NSLocalizedDescriptionKey: "MockServer in-process: \(error)"])
        }
    }
}
