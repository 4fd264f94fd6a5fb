import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServerCore
@_spi(Framing) import MockServerHTTP

/// One load of a ``MockURLProtocol``: the request goes to the mock over an in-memory connection,
/// and the bytes the mock writes are read as a client reads a response, then handed to the
/// loading system.
///
/// Every event of the connection, and the idle timeout, run on the mock's loop thread; `start` and
/// `cancel` come from the loading system's thread. The state is behind a lock. The client is called
/// in order, on the task's own queue where the loading system has one (FoundationNetworking),
/// otherwise from the loop thread; never after the load was cancelled.
final class InProcessExchange: Sendable {
    private enum Phase {
        /// Not started yet.
        case idle
        /// Connection `generation` carries the request (a redirect followed here opens the next).
        case loading(generation: Int)
        /// Finished, failed or cancelled: nothing more reaches the client.
        case done
    }

    private struct State {
        var phase = Phase.idle
        var request: URLRequest
        var connection: MemoryConnection?
        var parser: HTTPResponseParser
        /// Body bytes kept for one `didLoad` at the end (FoundationNetworking keeps only the last),
        /// unless the session takes them piece by piece (``piecesToClient``).
        var body: [UInt8] = []
        /// Each piece of the body goes to the client as it comes: always on Apple's platforms; on
        /// FoundationNetworking, for a task whose session's delegate gets its data (found in `start`).
        var piecesToClient: Bool
        var redirects = 0
        var lastActivity = MonotonicClock.now()
        /// The loading system stopped the load: the client hears nothing more.
        var cancelled = false
        /// Client calls collected while one event is handled, made together; `nil` outside such handling.
        var batch: Batch?
        /// Where the client is called off its own thread, when the loading system wants one queue
        /// for it: found once, when first needed (a plain answer served in `startLoading` never
        /// needs it); `.some(nil)` when the task has none.
        var clientQueue: DispatchQueue??
    }

    /// The client calls of one handled event.
    private struct Batch {
        var calls: [@Sendable (any URLProtocolClient, URLProtocol) -> Void] = []
        /// The event is handled on the client's own thread (a plain answer served in
        /// `startLoading`): the calls are made at once, not sent to the client's queue.
        let onClientThread: Bool
    }

    private let route: InProcessRoute
    private let state: Locked<State>
    /// `nonisolated(unsafe)`: the protocol and its client are Objective-C objects Foundation does
    /// not mark `Sendable`; they are only called from the loop thread, one call at a time, and
    /// from `start` before any loop event.
    nonisolated(unsafe) private let urlProtocol: URLProtocol
    #if canImport(FoundationNetworking)
    private let client: any URLProtocolClient
    #else
    nonisolated(unsafe) private let client: any URLProtocolClient
    #endif

    init(request: URLRequest, route: InProcessRoute, protocol urlProtocol: URLProtocol, client: any URLProtocolClient) {
        self.route = route
        self.urlProtocol = urlProtocol
        self.client = client
        #if canImport(FoundationNetworking)
        let piecesToClient = false
        #else
        let piecesToClient = true
        #endif
        self.state = Locked(State(request: request, parser: HTTPResponseParser(requestMethod: request.httpMethod ?? "GET"), piecesToClient: piecesToClient))
    }

    /// Sends the request to the mock: its `prepared` form when made already for this request, and
    /// the responder's `first` answer when asked already (see ``InProcessRoute/firstAnswer(to:)``).
    func start(isDownload: Bool, prepared: PreparedRequest? = nil, first: (connectionID: Int, answer: HTTPImmediateAnswer)? = nil) {
        #if canImport(FoundationNetworking)
        if isDownload {
            // FoundationNetworking finishes a download only with a file its own HTTP protocol wrote.
            return fail(URLError(.unsupportedURL, userInfo: [NSLocalizedDescriptionKey:
                "MockServer in-process: FoundationNetworking on Linux cannot finish a download task from a URLProtocol; use data(for:) or the socket"]), abandon: false)
        }
        // Called on the task's queue, where its session's registry may be read.
        if urlProtocol.task?.sessionTakesPieces == true { state.withLock { $0.piecesToClient = true } }
        #endif
        open(state.withLock { $0.request }, generation: 0, onClientThread: true, prepared: prepared, first: first)
    }

    /// The loading system stopped the load (the task was cancelled): the mock's pending pauses and
    /// answers for it are cancelled.
    func cancel() {
        let connection: MemoryConnection? = state.withLock { state in
            state.cancelled = true
            guard case .loading = state.phase else { return nil }
            state.phase = .done
            return state.connection
        }
        connection?.abandon()
    }

    /// Sends `request` to the mock; `onClientThread` when called on the client's own thread.
    private func open(_ request: URLRequest, generation: Int, onClientThread: Bool, prepared: PreparedRequest? = nil,
                      first: (connectionID: Int, answer: HTTPImmediateAnswer)? = nil) {
        let prepared = prepared ?? PreparedRequest(request, route: route)
        let bytes = prepared.bytes
        // The state is set before the connection exists, so that its first event finds it.
        let started = state.withLock { state in
            if case .done = state.phase { return false }
            state.phase = .loading(generation: generation)
            state.request = request
            state.connection = nil
            state.parser = HTTPResponseParser(requestMethod: request.httpMethod ?? "GET")
            state.body = []
            state.lastActivity = MonotonicClock.now()
            return true
        }
        guard started else { return }
        guard route.connector.isOpen else {
            return fail(URLError(.cannotConnectToHost, userInfo: [NSLocalizedDescriptionKey: "MockServer in-process: the mock server has stopped"]), abandon: false)
        }
        // The responder is asked first, on the loading thread (see ``InProcessRoute/firstAnswer(to:)``);
        // a plain answer that still needs a connection's handling (a redirect to follow, bytes that
        // do not read as one response) is read here, as the events of a connection would be.
        let asked = first ?? prepared.parsed.map { route.firstAnswer(to: $0) }
        let connectionID = asked?.connectionID ?? route.environment.makeConnectionID()
        if let parsed = prepared.parsed, case .reply(let reply)? = asked?.answer, let plain = InProcessPlainAnswer(reply, to: parsed) {
            plain.record(reply, to: parsed, connectionID: connectionID, in: route.environment)
            handle(.bytes(Array(plain.pieces.joined())), generation: generation, onClientThread: onClientThread)
            handle(.closed, generation: generation, onClientThread: onClientThread)
            return
        }
        let firstAnswer = asked?.answer
        let interval = request.timeoutInterval
        let responder = route.responder
        var driver: (@Sendable () -> any StreamDriver)?
        if let firstAnswer {
            driver = { HTTPConnectionDriver(responder: responder, firstAnswer: firstAnswer) }
        }
        var cancelledMeanwhile = false
        let connection = route.connector.connect(prepare: { connection in
            cancelledMeanwhile = state.withLock { state in
                state.connection = connection
                return state.cancelled
            }
        }, sending: bytes, driver: driver, connectionID: connectionID, then: { [self] loop in
            InProcessIdleTimeout(interval: interval).schedule(on: loop, idleTime: { [self] in
                state.withLock { state in
                    guard case .loading(let loading) = state.phase, loading == generation else { return nil }
                    return TimeInterval(MonotonicClock.now() &- state.lastActivity) / 1e9
                }
            }, expire: { [self] error in fail(error) })
        }) { [self] event in handle(event, generation: generation) }
        if let connection, cancelledMeanwhile { connection.abandon() }
        if connection == nil {
            fail(URLError(.cannotConnectToHost, userInfo: [NSLocalizedDescriptionKey: "MockServer in-process: the mock server has stopped"]), abandon: false)
        }
    }

    // MARK: On the loop thread (or, for a plain answer, the client's)

    /// Reads one event of the connection; the client calls it makes go out together at the end.
    private func handle(_ event: MemoryTransport.Event, generation: Int, onClientThread: Bool = false) {
        // A redirect followed here handles the next connection's events inside this call.
        let outer = state.withLock { state in
            defer { state.batch = Batch(onClientThread: onClientThread) }
            return state.batch
        }
        defer {
            let calls = state.withLock { state in
                defer { state.batch = outer }
                return state.batch?.calls ?? []
            }
            if !calls.isEmpty {
                let all: @Sendable (any URLProtocolClient, URLProtocol) -> Void = { client, urlProtocol in for call in calls { call(client, urlProtocol) } }
                if onClientThread {
                    if !state.withLock({ $0.cancelled }) { all(client, urlProtocol) }
                } else {
                    callClient(all)
                }
            }
        }
        let current = state.withLock { state -> Bool in
            guard case .loading(let loading) = state.phase, loading == generation else { return false }
            state.lastActivity = MonotonicClock.now()
            return true
        }
        guard current else { return }
        let events: [HTTPResponseParser.Event]
        do {
            switch event {
            case .bytes(let bytes):
                events = try state.withLock { try $0.parser.append(bytes) }
            case .endOfOutput, .closed:
                events = try state.withLock { try $0.parser.finish() }
            case .reset:
                if state.withLock({ $0.parser.isComplete }) { return }
                return fail(URLError(.networkConnectionLost, userInfo: [NSLocalizedDescriptionKey: "MockServer in-process: the connection was reset"]))
            }
        } catch let error as HTTPResponseParser.ParseError {
            return fail(failure(for: error))
        } catch {
            return fail(URLError(.badServerResponse))
        }
        for event in events {
            switch event {
            case .head(let head):
                if !received(head) { return }
            case .body(let bytes):
                deliver(bytes)
            case .end:
                return finish()
            }
        }
    }

    /// The error URLSession gives for a response that broke off.
    private func failure(for error: HTTPResponseParser.ParseError) -> URLError {
        switch error {
        case .malformed(let what):
            URLError(.badServerResponse, userInfo: [NSLocalizedDescriptionKey: "MockServer in-process: \(what)"])
        case .truncated:
            URLError(.networkConnectionLost, userInfo: [NSLocalizedDescriptionKey: "MockServer in-process: \(error)"])
        }
    }

    /// Hands a response head to the client, or follows or reports a redirect; `false` when this
    /// connection is finished with.
    private func received(_ head: HTTPResponseHead) -> Bool {
        let request = state.withLock { $0.request }
        guard let url = request.url else { return false }
        let fields = head.foundationFields
        // Made again where the client is called: Apple's HTTPURLResponse is not marked Sendable.
        // (It is never `nil` for a status the parser took: 100 to 999.)
        let makeResponse: @Sendable () -> HTTPURLResponse? = {
            HTTPURLResponse(url: url, statusCode: head.status, httpVersion: head.version, headerFields: fields)
        }
        route.cookies.store(from: head, fields: fields, for: request, url: url)
        if let redirect = InProcessRedirect(head, from: url) {
            return follow(redirect.request(following: request), response: makeResponse)
        }
        callClient { client, urlProtocol in
            if let response = makeResponse() { client.urlProtocol(urlProtocol, didReceive: response, cacheStoragePolicy: .notAllowed) }
        }
        return true
    }

    /// Follows a redirect to `next` (FoundationNetworking), or hands it to the loading system
    /// (Apple's); `false`: this connection is finished with.
    private func follow(_ next: URLRequest, response makeResponse: @escaping @Sendable () -> HTTPURLResponse?) -> Bool {
        let (connection, generation, count): (MemoryConnection?, Int, Int) = state.withLock { state in
            guard case .loading(let generation) = state.phase else { return (nil, 0, 0) }
            state.redirects += 1
            return (state.connection, generation, state.redirects)
        }
        connection?.close()
        #if canImport(FoundationNetworking)
        // FoundationNetworking cannot take a redirect from a URLProtocol (it stops the process), so
        // the redirect is followed here, as URLSession follows one from a server; a target no
        // mock takes gets the redirect response itself.
        guard route.accepts(next) else {
            callClient { client, urlProtocol in
                if let response = makeResponse() { client.urlProtocol(urlProtocol, didReceive: response, cacheStoragePolicy: .notAllowed) }
            }
            finish()
            return false
        }
        guard count <= InProcessRedirect.limit else {
            fail(URLError(.httpTooManyRedirects), abandon: false)
            return false
        }
        open(next, generation: generation + 1, onClientThread: state.withLock { $0.batch?.onClientThread ?? false })
        #else
        _ = (generation, count)
        // The loading system starts a new load for the redirect (or, when its delegate declines, ends this one).
        state.withLock { $0.phase = .done }
        callClient { client, urlProtocol in
            guard let response = makeResponse() else { return }
            client.urlProtocol(urlProtocol, wasRedirectedTo: next, redirectResponse: response)
            client.urlProtocol(urlProtocol, didFailWithError: NSError(domain: NSCocoaErrorDomain, code: NSUserCancelledError))
        }
        #endif
        return false
    }

    private func deliver(_ bytes: [UInt8]) {
        let toClient = state.withLock { state in
            if !state.piecesToClient { state.body.append(contentsOf: bytes) }
            return state.piecesToClient
        }
        if toClient { callClient { $0.urlProtocol($1, didLoad: Data(bytes)) } }
    }

    private func finish() {
        let (finished, connection, body): (Bool, MemoryConnection?, [UInt8]) = state.withLock { state in
            guard case .loading = state.phase else { return (false, nil, []) }
            state.phase = .done
            return (true, state.connection, state.body)
        }
        guard finished else { return }
        connection?.close()
        callClient { client, urlProtocol in
            if !body.isEmpty { client.urlProtocol(urlProtocol, didLoad: Data(body)) }
            client.urlProtocolDidFinishLoading(urlProtocol)
        }
    }

    private func fail(_ error: URLError, abandon: Bool = true) {
        let connection: MemoryConnection?? = state.withLock { state in
            if case .done = state.phase { return .none }
            state.phase = .done
            return .some(state.connection)
        }
        guard let connection else { return }
        if abandon { connection?.abandon() }
        callClient { $0.urlProtocol($1, didFailWithError: error) }
    }

    /// Calls the client on its queue (or here), unless the load was cancelled by then; while an
    /// event is handled, the call joins that event's batch.
    private func callClient(_ call: @escaping @Sendable (any URLProtocolClient, URLProtocol) -> Void) {
        let batched = state.withLock { state in
            guard state.batch != nil else { return false }
            state.batch?.calls.append(call)
            return true
        }
        if batched { return }
        let work: @Sendable () -> Void = { [self] in
            guard !state.withLock({ $0.cancelled }) else { return }
            call(client, urlProtocol)
        }
        if let queue = clientQueueOfTask() { queue.async(execute: work) } else { work() }
    }

    /// The task's own queue (FoundationNetworking), or `nil` (Apple's loading system takes calls from any thread).
    private func clientQueueOfTask() -> DispatchQueue? {
        #if canImport(FoundationNetworking)
        if let known = state.withLock({ $0.clientQueue }) { return known }
        let found = urlProtocol.task?.clientQueue
        state.withLock { $0.clientQueue = .some(found) }
        return found
        #else
        return nil
        #endif
    }
}
