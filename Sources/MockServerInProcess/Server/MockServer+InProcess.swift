import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServerEngine
import MockServerHTTP

extension MockServer {
    /// Makes sessions of `configuration` answered by this server in-process, through a
    /// ``MockURLProtocol`` subclass made for this server and put first in `protocolClasses`
    /// (the other classes stay, after it).
    ///
    /// The session sends this server requests for its own URL (``url(for:)``) and, with `hosts`
    /// `nil`, every other `http` and `https` request too; with `hosts` (`"api.example.com"` or
    /// `"api.example.com:8443"`), only those. Other requests go to the network as usual. The
    /// configuration's `httpAdditionalHeaders` (as set now) and `httpCookieStorage` are used as
    /// URLSession uses them. Once the server stops, the session's `http` and `https` requests fail
    /// with `cannotConnectToHost`, and the process keeps nothing of the server for it.
    ///
    /// - Throws: ``MockServerError/notRunning`` before ``start()``, ``MockServerError/notHTTP`` for a
    ///   line script.
    public func installInProcess(in configuration: URLSessionConfiguration, hosts: [String]? = nil) throws {
        let route = try inProcessRoute(hosts: hosts, additionalHeaders: configuration.httpAdditionalHeaders, cookieStorage: configuration.httpCookieStorage)
        configuration.protocolClasses = [InProcessRoutes.shared.protocolClass(for: route)] + (configuration.protocolClasses ?? [])
    }

    /// A new session answered by this server in-process (see ``installInProcess(in:hosts:)``).
    public func makeInProcessSession(configuration: URLSessionConfiguration = .ephemeral, hosts: [String]? = nil) throws -> URLSession {
        try installInProcess(in: configuration, hosts: hosts)
        return URLSession(configuration: configuration)
    }

    /// Answers requests of `URLSession.shared` (and of any session without a mock of its own) for
    /// this server's URL and for `hosts`, in-process, until ``uninstallInProcessForSharedSession()``
    /// or ``stop()``.
    ///
    /// `URLSession.shared` belongs to the whole process: tests that run in parallel must not
    /// install different servers for the same host there (the most recent one wins). Give each test
    /// its own session (``makeInProcessSession(configuration:hosts:)``) instead. On Linux,
    /// FoundationNetworking asks `URLSession.shared`'s own HTTP protocol before any class registered
    /// later, so this takes effect only when called before the process first uses URLSession.
    public func installInProcessForSharedSession(hosts: [String] = []) throws {
        InProcessRoutes.shared.addShared(try inProcessRoute(hosts: hosts, additionalHeaders: nil, cookieStorage: HTTPCookieStorage.shared))
    }

    /// Stops answering `URLSession.shared` in-process.
    public func uninstallInProcessForSharedSession() {
        if let connector = localClients?.connector { InProcessRoutes.shared.removeShared(of: connector) }
    }

    private func inProcessRoute(hosts: [String]?, additionalHeaders: [AnyHashable: Any]?, cookieStorage: HTTPCookieStorage?) throws -> InProcessRoute {
        guard let address else { throw MockServerError.notRunning }
        guard let local = localClients, let responder = local.responder as? any HTTPMockResponder else { throw MockServerError.notHTTP }
        let connector = local.connector
        // The process keeps nothing of the server for its sessions once it stops.
        guard whenStopped({ InProcessRoutes.shared.forget(connector) }) else { throw MockServerError.notRunning }
        return InProcessRoute(connector: connector, responder: { responder }, environment: environment, authority: address.description, hosts: hosts,
                              additionalHeaders: additionalHeaders, cookieStorage: cookieStorage)
    }
}
