import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(HotPath) import MockServerCore
import MockServerHTTP

/// Which requests go to one mock in-process, and what a session adds to them.
package final class InProcessRoute: Sendable {
    /// Opens in-memory connections on the mock's loop.
    let connector: LoopConnector
    /// The mock's HTTP responder, asked first on the loading thread (see ``InProcessExchange``).
    let responder: @Sendable () -> any HTTPMockResponder
    /// The mock's transcript, logger and connection numbers.
    let environment: ServerEnvironment
    /// `host:port` of the mock's own listener, always taken (as `http`), and the same with
    /// `localhost` for `127.0.0.1`.
    let authority: String
    private let localhostAuthority: String?
    /// Hosts taken besides the mock's own (`host` or `host:port`, lower-case); `nil`: every `http`
    /// and `https` request of the session.
    let hosts: Set<String>?
    /// The configuration's `httpAdditionalHeaders`, added where the request lacks them.
    let additionalHeaders: HTTPHeaderFields
    /// Where `Set-Cookie` goes and `Cookie` comes from (the configuration's storage).
    ///
    #if canImport(FoundationNetworking)
    let cookieStorage: HTTPCookieStorage?
    #else
    /// Kept: holds Apple's `HTTPCookieStorage`, documented as thread-safe but not marked `Sendable`.
    nonisolated(unsafe) let cookieStorage: HTTPCookieStorage?
    #endif

    package init(connector: LoopConnector, responder: @escaping @Sendable () -> any HTTPMockResponder, environment: ServerEnvironment,
                 authority: String, hosts: [String]?, additionalHeaders: [AnyHashable: Any]?, cookieStorage: HTTPCookieStorage?) {
        self.connector = connector
        self.responder = responder
        self.environment = environment
        self.authority = authority.lowercased()
        self.localhostAuthority = authority.hasPrefix("127.0.0.1:") ? "localhost:" + authority.dropFirst("127.0.0.1:".count) : nil
        self.hosts = hosts.map { Set($0.map { $0.lowercased() }) }
        self.additionalHeaders = HTTPHeaderFields((additionalHeaders ?? [:]).compactMap { key, value in
            (key as? String).map { HTTPHeaderFields.Field(name: $0, value: "\(value)") }
        }.sorted { $0.name < $1.name })
        self.cookieStorage = cookieStorage
    }

    /// The emptied ``ConnectionStates`` of an earlier first answer, for the next one: each first
    /// answer is asked for a connection of its own, whose states are dropped with the answer (a
    /// loop's connection that takes over makes its own), so an empty store that no one else holds
    /// is handed on rather than a new one made and freed (two allocations and a mutex, about 900
    /// instructions) every request.
    private let spareStates = Locked(ConnectionStates?.none)

    /// The session's cookies, as this route sends and keeps them.
    var cookies: InProcessCookies { InProcessCookies(storage: cookieStorage) }

    /// The mock's answer to `request`, asked at once on the calling thread for a new connection
    /// numbered here: a plain answer is served without the loop (see ``InProcessPlainAnswer``),
    /// anything else goes to the loop with what the responder said, so that nothing it counts
    /// happens twice. A thrown error is answered as a connection answers one: a 500 that names it.
    func firstAnswer(to request: HTTPMockRequest) -> (connectionID: Int, answer: HTTPReply.Immediate) {
        let connectionID = environment.makeConnectionID()
        var states = spareStates.withLock { $0.take() } ?? ConnectionStates()
        let answer = answer(to: request, connectionID: connectionID, states: states)
        // Held by nothing else (an answer still to come, which keeps its context, holds it): what
        // the responder kept there goes now, as it would have with the store, and the store is reused.
        if isKnownUniquelyReferenced(&states) {
            _ = states.removeAll()
            spareStates.withLock { $0 = states }
        }
        return (connectionID, answer)
    }

    /// The responder's answer with a context of its own, gone when it returns (unless the answer
    /// keeps it).
    private func answer(to request: HTTPMockRequest, connectionID: Int, states: ConnectionStates) -> HTTPReply.Immediate {
        let context = HTTPRequestContext(connectionID: connectionID, peer: nil, local: nil, environment: environment,
                                         states: states, inbox: connector.inbox)
        do {
            return try responder().answerImmediately(request, context: context)
        } catch {
            return .asynchronous { throw error }
        }
    }

    /// Whether `request` goes to this route's mock.
    func accepts(_ request: URLRequest) -> Bool {
        // The scheme compared without a lower-cased copy: this runs for every `canInit`.
        guard let url = request.url, let scheme = url.scheme else { return false }
        let secure = scheme.equalsIgnoringASCIICase("https")
        guard secure || scheme.equalsIgnoringASCIICase("http") else { return false }
        // A session given no hosts sends every http and https request here: nothing more to read.
        guard let hosts else { return true }
        guard let host = url.host?.lowercased() else { return false }
        let port = url.port ?? (secure ? 443 : 80)
        let authority = host.utf8.contains(UInt8(ascii: ":")) ? "[\(host)]:\(port)" : "\(host):\(port)"
        if authority == self.authority || authority == localhostAuthority { return true }
        return hosts.contains(host) || hosts.contains(authority)
    }
}
