import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(HotPath) import MockServerCore
import MockServerHTTP

/// One load of a ``MockURLProtocol``: the request goes to the mock over an in-memory connection,
/// and the bytes the mock writes are read as a client reads a response, then handed to the
/// loading system.
///
/// The load's state is one value, ``InProcessExchangeMachine``, behind one lock: each event (the
/// start, a connection's bytes or close, a cancel, the idle timeout) goes in under the lock, and
/// the actions it gives are done here, outside it. Every event of the connection, and the idle
/// timeout, run on the mock's loop thread; `start` and `cancel` come from the loading system's
/// thread. The client calls of one event are made together, in order, on the task's own queue where
/// the loading system has one (FoundationNetworking), otherwise from the loop thread; never after
/// the load was cancelled.
final class InProcessExchange: Sendable {
    private typealias Machine = InProcessExchangeMachine<MemoryConnection>

    private let route: InProcessRoute
    private let machine: Locked<Machine>
    /// Where the client is called off its own thread: the task's queue when the loading system wants
    /// one queue for it (FoundationNetworking), `nil` when any thread will do (Apple's).
    private let clientQueue: DispatchQueue?
    /// The protocol and its client are called only from the loop thread, one call at a time, and
    /// from `start` before any loop event.
    /// Kept: holds an Objective-C object Foundation does not mark `Sendable`.
    nonisolated(unsafe) private let urlProtocol: URLProtocol
    #if canImport(FoundationNetworking)
    private let client: any URLProtocolClient
    #else
    /// Kept: holds a client Apple's Foundation does not mark `Sendable`.
    nonisolated(unsafe) private let client: any URLProtocolClient
    #endif
    /// The request of the first connection.
    private let request: URLRequest

    /// Made by `startLoading`, on the loading system's thread (the task's queue, on FoundationNetworking).
    init(request: URLRequest, route: InProcessRoute, protocol urlProtocol: URLProtocol, client: any URLProtocolClient) {
        self.route = route
        self.urlProtocol = urlProtocol
        self.client = client
        self.request = request
        #if canImport(FoundationNetworking)
        // Read on the task's queue, where its session's registry may be read.
        let piecesToClient = urlProtocol.task?.sessionTakesPieces == true
        clientQueue = urlProtocol.task?.clientQueue
        let followsRedirects = true
        #else
        let piecesToClient = true
        clientQueue = nil
        let followsRedirects = false
        #endif
        machine = Locked(Machine(piecesToClient: piecesToClient, followsRedirects: followsRedirects, accepts: { [route] in route.accepts($0) }))
    }

    /// Sends the request to the mock: its `prepared` form when made already for this request, and
    /// the responder's `first` answer when asked already (see ``InProcessRoute/firstAnswer(to:)``).
    func start(isDownload: Bool, prepared: PreparedRequest? = nil, first: (connectionID: Int, answer: HTTPReply.Immediate)? = nil) {
        #if canImport(FoundationNetworking)
        if isDownload {
            // FoundationNetworking finishes a download only with a file its own HTTP protocol wrote.
            return fail(URLError(.unsupportedURL, userInfo: [NSLocalizedDescriptionKey:
                "MockServer in-process: FoundationNetworking on Linux cannot finish a download task from a URLProtocol; use data(for:) or the socket"]), abandon: false)
        }
        #endif
        let request = self.request
        guard machine.withLock({ $0.start(request, now: MonotonicClock.now()) }) else { return }
        open(request, generation: 0, onClientThread: true, prepared: prepared, first: first)
    }

    /// The loading system stopped the load (the task was cancelled): the mock's pending pauses and
    /// answers for it are cancelled.
    func cancel() {
        var calls: [Machine.ClientCall] = []
        perform(machine.withLock { $0.cancel() }, calls: &calls, onClientThread: true)
    }

    /// Sends `request` to the mock on connection `generation`, which the machine is loading already;
    /// `onClientThread` when called on the client's own thread.
    private func open(_ request: URLRequest, generation: Int, onClientThread: Bool, prepared: PreparedRequest? = nil,
                      first: (connectionID: Int, answer: HTTPReply.Immediate)? = nil) {
        let prepared = prepared ?? PreparedRequest(request, route: route)
        guard route.connector.isOpen else {
            return fail(URLError(.cannotConnectToHost, userInfo: [NSLocalizedDescriptionKey: "MockServer in-process: the mock server has stopped"]), abandon: false,
                        onClientThread: onClientThread)
        }
        // The responder is asked first, on the loading thread (see ``InProcessRoute/firstAnswer(to:)``);
        // a plain answer that still needs a connection's handling (a redirect to follow, bytes that
        // do not read as one response) is read here, as the events of a connection would be.
        let asked = first ?? prepared.parsed.map { route.firstAnswer(to: $0) }
        let connectionID = asked?.connectionID ?? route.environment.makeConnectionID()
        if let parsed = prepared.parsed, case .reply(let reply)? = asked?.answer, let plain = InProcessPlainAnswer(reply, to: parsed) {
            plain.record(reply, to: parsed, connectionID: connectionID, in: route.environment)
            handle(.bytes(plain.joined), generation: generation, onClientThread: onClientThread)
            handle(.closed, generation: generation, onClientThread: onClientThread)
            return
        }
        let interval = request.timeoutInterval
        let responder = route.responder
        var driver: (@Sendable () -> any StreamDriver)?
        if let firstAnswer = asked?.answer {
            driver = { HTTPConnectionDriver(responder: responder, firstAnswer: firstAnswer) }
        }
        // The machine knows the connection before its first event; what that gives (an abandon,
        // when the load was cancelled meanwhile) is done once `connect` has returned.
        var whenConnected: [Machine.Action] = []
        let connection = route.connector.connect(prepare: { connection in
            whenConnected = machine.withLock { $0.connected(connection, generation: generation) }
        }, sending: prepared.bytes, driver: driver, connectionID: connectionID, then: { [self] loop in
            InProcessIdleTimeout(interval: interval).schedule(on: loop, idleTime: { [self] in
                machine.withLock { $0.idleTime(generation: generation, now: MonotonicClock.now()) }
            }, expire: { [self] error in fail(error) })
        }) { [self] event in handle(event, generation: generation) }
        var calls: [Machine.ClientCall] = []
        perform(whenConnected, calls: &calls, onClientThread: onClientThread)
        if connection == nil {
            fail(URLError(.cannotConnectToHost, userInfo: [NSLocalizedDescriptionKey: "MockServer in-process: the mock server has stopped"]), abandon: false,
                 onClientThread: onClientThread)
        }
    }

    // MARK: On the loop thread (or, for a plain answer, the client's)

    /// Reads one event of connection `generation`; the client calls it makes go out together at the end.
    private func handle(_ event: MemoryTransport.Event, generation: Int, onClientThread: Bool = false) {
        let actions = machine.withLock { $0.received(event, generation: generation, now: MonotonicClock.now()) }
        var calls: [Machine.ClientCall] = []
        perform(actions, calls: &calls, onClientThread: onClientThread)
        deliver(calls, onClientThread: onClientThread)
    }

    /// Fails the load with `error`; `abandon`: its connection is abandoned too.
    private func fail(_ error: URLError, abandon: Bool = true, onClientThread: Bool = false) {
        var calls: [Machine.ClientCall] = []
        perform(machine.withLock { $0.fail(error, abandon: abandon) }, calls: &calls, onClientThread: onClientThread)
        deliver(calls, onClientThread: onClientThread)
    }

    /// Does `actions` in order, collecting their client calls in `calls`; a redirect followed here
    /// opens the next connection, whose events deliver their own calls.
    private func perform(_ actions: [Machine.Action], calls: inout [Machine.ClientCall], onClientThread: Bool) {
        for action in actions {
            switch action {
            case .open(let request, let generation):
                open(request, generation: generation, onClientThread: onClientThread)
            case .close(let connection):
                connection.close()
            case .abandon(let connection):
                connection.abandon()
            case .storeCookies(let head, let request, let url):
                route.cookies.store(from: head.headers, fields: head.foundationFields, for: request, url: url)
            case .call(let call):
                calls.append(call)
            }
        }
    }

    /// Makes `calls` on the client, in order: here on the client's own thread, else on its queue
    /// (or here, when it has none); none once the load was cancelled.
    private func deliver(_ calls: [Machine.ClientCall], onClientThread: Bool) {
        guard !calls.isEmpty else { return }
        let work: @Sendable () -> Void = { [self] in
            guard !machine.withLock({ $0.isCancelled }) else { return }
            for call in calls { make(call) }
        }
        if !onClientThread, let clientQueue { clientQueue.async(execute: work) } else { work() }
    }

    /// One call of the client. Responses are made here, where the client is called: Apple's
    /// HTTPURLResponse is not marked Sendable. (One is never `nil` for a status the parser took: 100 to 999.)
    private func make(_ call: Machine.ClientCall) {
        switch call {
        case .response(let head, let url):
            guard let response = HTTPURLResponse(url: url, statusCode: head.status, httpVersion: head.version, headerFields: head.foundationFields) else { return }
            client.urlProtocol(urlProtocol, didReceive: response, cacheStoragePolicy: .notAllowed)
        case .data(let bytes):
            client.urlProtocol(urlProtocol, didLoad: Data(bytes))
        case .finished:
            client.urlProtocolDidFinishLoading(urlProtocol)
        case .failed(let error):
            client.urlProtocol(urlProtocol, didFailWithError: error)
        case .redirected(let next, let head, let url):
            guard let response = HTTPURLResponse(url: url, statusCode: head.status, httpVersion: head.version, headerFields: head.foundationFields) else { return }
            // The loading system starts a new load for the redirect (or, when its delegate declines, ends this one).
            client.urlProtocol(urlProtocol, wasRedirectedTo: next, redirectResponse: response)
            client.urlProtocol(urlProtocol, didFailWithError: NSError(domain: NSCocoaErrorDomain, code: NSUserCancelledError))
        }
    }
}
