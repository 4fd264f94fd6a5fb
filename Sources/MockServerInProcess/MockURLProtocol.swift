import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServerCore
import MockServerHTTP

/// The `URLProtocol` that answers `URLSession` requests in-process with a mock server's responder:
/// the request goes through the same engine as one over the socket (the same driver, responder,
/// transcript and unexpected-request report), handed over in memory instead of through a socket.
///
/// You rarely name this class: a mock server puts a subclass made for it first in a
/// configuration's `protocolClasses` (`installInProcess(in:)`), or registers this class for
/// `URLSession.shared` (`installInProcessForSharedSession(hosts:)`). Each configuration gets its
/// own subclass, tied to its mock, which is how two sessions of parallel tests never see each
/// other's mock even for the same host. A request that no mock claims is left to the other
/// protocols, never answered by accident.
///
/// The loading system calls `startLoading` and `stopLoading` one after the other on its own
/// thread (Apple's client thread, FoundationNetworking's session queue); the exchange's
/// state is behind a lock.
package class MockURLProtocol: URLProtocol {
    /// The load under way: set by `startLoading`, taken by `stopLoading`, both called by the
    /// loading system on one thread, one after the other (so no lock: the exchange's own events,
    /// on the mock's loop, never touch it).
    private var exchange: InProcessExchange?
    /// The request made ready for the mock when this object was made (see ``PreparedRequest``),
    /// with the route that takes it; `nil` when no route does.
    private let prepared: (route: InProcessRoute, request: PreparedRequest)?

    // FoundationNetworking declares this initializer `required`; Apple's Foundation does not.
    #if canImport(FoundationNetworking)
    /// Makes the protocol object for `request`, and its request ready for the mock that takes it.
    package required init(request: URLRequest, cachedResponse: CachedURLResponse?, client: (any URLProtocolClient)?) {
        prepared = Self.preparing(request)
        super.init(request: request, cachedResponse: cachedResponse, client: client)
    }
    #else
    /// Makes the protocol object for `request`, and its request ready for the mock that takes it.
    package override init(request: URLRequest, cachedResponse: CachedURLResponse?, client: (any URLProtocolClient)?) {
        prepared = Self.preparing(request)
        super.init(request: request, cachedResponse: cachedResponse, client: client)
    }
    #endif

    /// The route of this class: `nil` for ``MockURLProtocol`` itself, which consults the routes
    /// registered for `URLSession.shared`, and for a class made for a mock that has stopped.
    class var route: InProcessRoute? { nil }

    /// Whether this class was made for one mock's sessions (see ``InProcessRoutes/protocolClass(for:)``).
    class var isRouted: Bool { false }


    /// The route that takes `request` and the request made ready for it; a class made for one
    /// route took the request in `canInit` already, so its route is not asked again. A body stream
    /// is left for `startLoading` to read: a stream reads once, and the object made may not be
    /// the one that loads.
    ///
    /// FoundationNetworking's `URLSession` puts the configuration's stored cookies into every
    /// task's request before a protocol sees it (Apple's leaves that to its own HTTP loader), so on
    /// Linux the storage, the same one, is not asked a second time: that question, which costs as
    /// much as the rest of the request's bytes, would only ever find the field already there.
    private static func preparing(_ request: URLRequest) -> (route: InProcessRoute, request: PreparedRequest)? {
        guard request.httpBodyStream == nil else { return nil }
        #if canImport(FoundationNetworking)
        let addingStoredCookies = false
        #else
        let addingStoredCookies = true
        #endif
        return (route ?? route(for: request)).map { ($0, PreparedRequest(request, route: $0, addingStoredCookies: addingStoredCookies)) }
    }

    /// The route that takes `request`, if any.
    class func route(for request: URLRequest) -> InProcessRoute? {
        if isRouted { return route.flatMap { $0.accepts(request) ? $0 : nil } }
        return InProcessRoutes.shared.sharedRoute(for: request)
    }

    override package class func canInit(with request: URLRequest) -> Bool {
        guard isRouted else { return InProcessRoutes.shared.sharedRoute(for: request) != nil }
        // A class whose mock has stopped (and was forgotten) takes its sessions' `http` and `https`
        // requests and fails them in `startLoading`, as a stopped server's socket would.
        guard let route else { return ["http", "https"].contains(request.url?.scheme?.lowercased()) }
        return route.accepts(request)
    }

    override package class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    override package func startLoading() {
        guard let client else { return }
        guard let route = prepared?.route ?? Self.route(for: request) else {
            if Self.isRouted, Self.route == nil {
                return client.urlProtocol(self, didFailWithError: URLError(.cannotConnectToHost, userInfo: [NSLocalizedDescriptionKey: "MockServer in-process: the mock server has stopped"]))
            }
            client.urlProtocol(self, didFailWithError: URLError(.unsupportedURL, userInfo: [NSLocalizedDescriptionKey: "no mock server takes \(request.url?.absoluteString ?? "this request")"]))
            return
        }
        var request = request
        // The prepared request goes to its own route; an upload task's body is known only here.
        var prepared = self.prepared?.request
        #if canImport(FoundationNetworking)
        if request.httpBody == nil, request.httpBodyStream == nil, task is URLSessionUploadTask, let body = task?.uploadBodyData {
            request.httpBody = body
            prepared = nil
        }
        #endif
        let isDownload = task is URLSessionDownloadTask
        // The common case: a plain answer, served here with no exchange, connection or loop.
        var first: (connectionID: Int, answer: HTTPReply.Immediate)?
        if !isDownload, let prepared, let parsed = prepared.parsed, route.connector.isOpen, let url = request.url {
            let asked = route.firstAnswer(to: parsed)
            first = asked
            if case .reply(let reply) = asked.answer, let plain = InProcessPlainAnswer(reply, to: parsed),
               let response = plain.response(toMethod: parsed.method, from: url) {
                plain.record(reply, to: parsed, connectionID: asked.connectionID, in: route.environment)
                return InProcessPlainAnswer.deliver(response, to: url, for: request, cookies: route.cookies, protocol: self, client: client)
            }
        }
        let exchange = InProcessExchange(request: request, route: route, protocol: self, client: client)
        self.exchange = exchange
        exchange.start(isDownload: isDownload, prepared: prepared, first: first)
    }

    override package func stopLoading() {
        exchange?.cancel()
        exchange = nil
    }
}
