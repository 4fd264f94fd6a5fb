import MockServerEngine
import MockServerHTTP
import MockServerHTTPScript
import MockServerInProcess
import MockServerScript

// The composition: a server made through the facade serves the standard protocols.
extension MockServer {
    /// Creates a stopped server.
    ///
    /// - Parameters:
    ///   - responder: decides what to send; a ``PatternResponder`` also gives ``data`` and ``files``
    ///     its script's `data` and `files`.
    ///   - configuration: address, ports, limits, clock and logging.
    public convenience init(responder: any ScriptResponder, configuration: MockServer.Configuration = .init()) {
        self.init(responder: responder, configuration: configuration, vocabulary: .standard)
    }

    /// Creates a stopped server on `host` and `port` (0: the system picks).
    public convenience init(responder: any ScriptResponder, port: UInt16 = 0, host: String = "127.0.0.1") {
        self.init(responder: responder, configuration: Configuration(host: host, port: port))
    }

    /// Creates a stopped server answering with one set of a response script.
    ///
    /// - Throws: ``ResponseFileError`` when the set does not exist or names a missing response.
    public convenience init(script: ResponseScript, set: String = "default", configuration: MockServer.Configuration = .init()) throws {
        self.init(responder: try PatternResponder(script: script, set: set), configuration: configuration)
    }

    /// Creates a stopped HTTP server whose requests go to `httpResponder`; it binds no data port.
    ///
    /// - Parameters:
    ///   - httpResponder: answers each request, at once or asynchronously.
    ///   - configuration: address, port, limits, clock and logging.
    public convenience init(httpResponder: any HTTPMockResponder, configuration: MockServer.Configuration = .init()) {
        self.init(httpResponder: httpResponder, configuration: configuration, vocabulary: .standard)
    }

    /// Moves new connections, and every connection that has not switched sets by itself, to
    /// another set of the current ``PatternResponder``'s script.
    ///
    /// - Throws: ``ResponseFileError`` for an unknown set; ``MockServerError/notAPatternResponder``.
    public func useResponseSet(_ name: String) throws {
        guard let switched = try responder.usingResponseSet(name) else { throw MockServerError.notAPatternResponder }
        responder = switched
    }
}
