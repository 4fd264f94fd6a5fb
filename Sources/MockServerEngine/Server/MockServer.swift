import Dispatch
import Foundation
@_spi(HotPath) import MockServerCore
import MockServerScript
import MockServerTLS

/// A local TCP server that pretends to be something else, for tests of network clients.
///
/// It listens on a main port, whose connections the protocol of its script's `scheme` serves (a
/// line, a raw read or a framer's unit to a ``ScriptResponder``, a whole HTTP request to an
/// ``HTTPMockResponder``, a WebSocket message to the script), and on the listeners that protocol adds:
/// an FTP script (or one without a scheme, the original's format) also gets a passive-data port,
/// which sends ``data`` to whoever connects, as the original MockServer did. Every port is bound
/// when ``start()`` returns, so ``port``, ``dataPort`` and `$pasv` are right at once.
///
/// ```swift
/// let script = try ResponseScript(contentsOf: url)
/// let server = MockServer(responder: try PatternResponder(script: script))
/// try server.start()
/// defer { server.stop() }
/// // connect a client to server.port …
/// ```
///
/// All members are safe to call from any thread. The server runs one event-loop thread of its own,
/// so a pause on one connection never delays another.
public final class MockServer: Sendable {
    private enum State {
        case idle
        case running(Running)
        case stopped
    }

    private struct Running {
        let server: LoopServer
        let address: NetworkAddress
        /// The shared passive-data port, bound for line scripts only.
        let dataAddress: NetworkAddress?
        /// Opens connections from clients in this process, and what they are answered by, for a
        /// protocol that has them (``ScriptConnections``' local responder).
        let local: (connector: LoopConnector, responder: any Sendable)?
        /// Run once when the server stops, after its connector is shut (a protocol's clean-up).
        let stopActions = Locked<[@Sendable () -> Void]>([])
    }

    /// How the server listens and behaves.
    public let configuration: MockServer.Configuration
    private let core: ServerCore
    /// The server's protocols: those whose schemes a script built in code (or a responder without
    /// a script) may name, when its own vocabulary did not claim it; their variables serve every
    /// script; and each composes the server's connections (``ScriptProtocol/compose(_:script:settings:)``).
    private let vocabulary: ScriptVocabulary
    /// The protocol that serves every connection whatever the responder's script says (an HTTP
    /// server made with a responder of its own), or `nil`: the script's scheme's.
    private let serving: (any ScriptProtocol)?
    private let state = Locked(State.idle)

    /// Creates a stopped server composed of the protocols `vocabulary` gives (the facade's public
    /// initializers give the standard ones).
    ///
    /// - Parameters:
    ///   - responder: decides what to send; a ``PatternResponder`` also gives ``data`` and ``files``
    ///     its script's `data` and `files`.
    ///   - configuration: address, ports, limits, clock and logging, and the protocols' settings.
    ///   - vocabulary: the protocols that serve a script whose own vocabulary did not claim its
    ///     scheme, and that compose the server's connections.
    ///   - serving: the protocol whose connections serve every script, whatever its scheme; `nil`
    ///     for the one that claims the script's scheme.
    package init(responder: any ScriptResponder, configuration: MockServer.Configuration, vocabulary: ScriptVocabulary, serving: (any ScriptProtocol)?) {
        self.configuration = configuration
        self.vocabulary = vocabulary
        self.serving = serving
        let script = responder.responseScript
        self.core = ServerCore(responder: responder, data: script?.data ?? [], configuration: configuration, vocabulary: vocabulary)
        if let files = script?.files, !files.isEmpty { core.files = files }
    }

    /// Creates a stopped server composed of the protocols `vocabulary` gives, and of the one that
    /// claims the responder's script's scheme (a protocol of your own, added to the script's
    /// vocabulary): each composes the server's connections, listeners and settings
    /// (``ScriptProtocol/compose(_:script:settings:)``) and adds its routes to the control API.
    ///
    /// ```swift
    /// let vocabulary = try ScriptVocabulary.standard.adding(CounterProtocol())
    /// let script = try ResponseScript(json: #"{"scheme": "counter", "responses": {}}"#, vocabulary: vocabulary)
    /// let server = MockServer(responder: try PatternResponder(script: script), vocabulary: vocabulary)
    /// ```
    ///
    /// - Parameters:
    ///   - responder: decides what to send; a ``PatternResponder`` also gives ``data`` and ``files``
    ///     its script's `data` and `files`.
    ///   - configuration: address, ports, limits, clock and logging, and the protocols' settings.
    ///   - vocabulary: the server's protocols (`.standard`, or it with protocols of your own added).
    public convenience init(responder: any ScriptResponder, configuration: MockServer.Configuration = .init(), vocabulary: ScriptVocabulary) {
        self.init(responder: responder, configuration: configuration, vocabulary: vocabulary, serving: nil)
    }

    /// Everything that happened on the server's connections.
    public var transcript: Transcript { core.transcript }

    /// What answers input. Setting it affects the next input of every connection.
    public var responder: any ScriptResponder {
        get { core.responder }
        set { core.responder = newValue }
    }

    /// The bytes the passive-data port sends, `«data»` sends and `$size` counts.
    public var data: Data {
        get { Data(core.data) }
        set { core.data = Array(newValue) }
    }

    /// Bytes per file name, for scripts that select files (`{"file": "$1"}`): `RETR`, `SIZE`, `LIST`
    /// and `NLST` of the bundled FTP script use them; a name that is not here falls back to ``data``,
    /// or gets the script's `otherwise` reply (550 in the bundled script) when there are files.
    ///
    /// Every path is in one form, `/in/today.csv`, whatever its origin (your code, `--files DIR`, a
    /// script, an upload), and either form finds a file: `files["in/today.csv"]` too.
    public var files: MockServer.Files {
        get { MockServer.Files(core.files.mapValues { Data($0) }) }
        set { core.files = newValue.dictionary.mapValues { Array($0) } }
    }

    /// Runs `body` on what the server's protocols keep on it (each in its own type), atomically:
    /// read with the configuration's settings by the protocols' connections.
    package func withProtocolState<Result>(_ body: (inout ScriptSettings) -> Result) -> Result {
        core.withProtocolState(body)
    }

    /// Every upload received so far, in order.
    public var uploads: [Upload] { core.uploads }

    /// Stores one file of ``files`` (a path such as `/docs/a.txt`; a name ending in `/` is a folder),
    /// atomically with respect to the server's own changes.
    public func storeFile(_ name: String, _ data: Data) { core.storeFile(name, Array(data)) }

    /// Removes the file, or the folder and everything in it, at `path`; `false` when nothing is there.
    @discardableResult
    public func removeFile(_ path: String) -> Bool {
        let now = core.configuration.clock()
        return core.withFileStore { $0.remove(path, at: now) != nil }
    }

    /// Forgets every upload received so far (``uploads`` is empty afterwards).
    public func removeUploads() { core.removeUploads() }

    /// Waits for an upload (already received, or still to come), optionally of a given name.
    ///
    /// - Throws: ``Transcript.Timeout`` with the transcript so far.
    @discardableResult
    public func waitForUpload(named name: String? = nil, timeout: Duration = .seconds(10)) async throws -> Upload {
        let entry = try await transcript.wait(for: name.map { "an upload named \($0)" } ?? "an upload", timeout: timeout) { entry in
            if case .uploaded(let uploaded, _) = entry.event { name == nil || uploaded == name } else { false }
        }
        guard case .uploaded(let uploaded, _) = entry.event,
              let upload = uploads.last(where: { $0.name == uploaded && $0.connection == entry.connection }) else {
            throw Transcript.Timeout(timeout: timeout, expectation: "an upload", transcript: transcript.entries)
        }
        return upload
    }

    /// The bound main address, or `nil` when the server is not running.
    public var address: NetworkAddress? {
        state.withLock { if case .running(let running) = $0 { running.address } else { nil } }
    }

    /// The bound main port, or 0 when the server is not running.
    public var port: UInt16 { address?.port ?? 0 }

    /// What clients in this process need while the server runs a protocol that has them: its
    /// connector and what its protocol's ``ScriptConnections`` said they are answered by.
    package var localClients: (connector: LoopConnector, responder: any Sendable)? {
        state.withLock { if case .running(let running) = $0 { running.local } else { nil } }
    }

    /// Runs `action` once when the running server stops (after its connector for local clients is shut);
    /// `false`, and `action` not kept, when the server is not running.
    @discardableResult
    package func whenStopped(_ action: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { state in
            guard case .running(let running) = state else { return false }
            running.stopActions.withLock { $0.append(action) }
            return true
        }
    }

    /// The transcript, logger and connection numbers.
    package var environment: ServerEnvironment { core.environment }

    /// The network conditions new connections get (latency, bandwidth, slicing, limits), starting
    /// as ``Configuration/conditions`` (or, without those, the script's ``ResponseScript/conditions``);
    /// `nil` for none. A change applies to connections opened
    /// after it: one already open keeps the conditions it opened with.
    ///
    /// ```swift
    /// var slow = NetworkConditions()
    /// slow.toClient.bytesPerSecond = 32 * 1024
    /// server.networkConditions = slow      // the next download crawls
    /// server.networkConditions = nil       // and the one after is fast again
    /// ```
    public var networkConditions: NetworkConditions? {
        get { core.environment.conditions.withLock { $0 } }
        set { core.environment.conditions.withLock { $0 = newValue } }
    }

    /// The running loop's inbox, for work that must run on the loop's thread; `nil` when stopped.
    package var loopInbox: LoopInbox? {
        state.withLock { if case .running(let running) = $0 { running.server.inbox } else { nil } }
    }

    /// The bound passive-data port, or 0 when the server is not running or has none (an HTTP server).
    public var dataPort: UInt16 {
        state.withLock { if case .running(let running) = $0 { running.dataAddress?.port ?? 0 } else { 0 } }
    }

    /// How many control and data connections are open now.
    public var openConnectionCount: Int { core.openConnections.withLock { $0 } }

    /// Waits until no connection is open (at once when none is).
    ///
    /// - Throws: ``Transcript.Timeout`` with the transcript so far.
    public func waitForConnectionsClosed(timeout: Duration = .seconds(10)) async throws {
        guard openConnectionCount > 0 else { return }
        let openConnections = core.openConnections
        try await transcript.wait(for: "every connection to close", timeout: timeout) { entry in
            guard case .closed = entry.event else { return false }
            return openConnections.withLock { $0 == 0 }
        }
    }

    /// A URL for `path` on this server, with the script's scheme (`ftp`, `http`, …; `ws` for a
    /// `websocket` script; `tcp` when the responder has none), the bound address and port:
    /// `ftp://127.0.0.1:50123/file.txt`. With implicit TLS the scheme is its TLS form, as the protocol
    /// that claims it says (``ScriptProtocol/urlScheme(for:implicitTLS:)``): `https`, `ftps`,
    /// `webdavs`, `davs`, `smtps`, `imaps`, `pop3s`, `wss`.
    ///
    /// `path` is a reference to the server's root: `?` starts a query and `#` a fragment, percent
    /// escapes stay as written, and other characters a part does not allow are escaped:
    /// `url(for: "/search?q=a%20b")` ends `/search?q=a%20b`, `url(for: "/a b")` ends `/a%20b`.
    public func url(for path: String = "/") -> URL {
        let implicitTLS = configuration.tls?.mode == .implicit
        let scheme: String
        if let serving {
            let named = serving.schemes.sorted().first ?? "tcp"
            scheme = serving.urlScheme(for: named, implicitTLS: implicitTLS)
        } else if let named = core.responder.responseScript?.scheme?.lowercased() {
            // The protocol that claims the scheme says what its URLs look like.
            scheme = scriptProtocol(of: core.responder)?.urlScheme(for: named, implicitTLS: implicitTLS) ?? named
        } else {
            scheme = "tcp"
        }
        let host = address.map { $0.isIPv6 ? "[\($0.host)]" : $0.host } ?? configuration.host
        // A URL from parts that are all ASCII or percent-encoded cannot fail to parse.
        return URL(string: "\(scheme)://\(host):\(port)\(PercentCoding.urlReference(path))") ?? URL(fileURLWithPath: "/")
    }

    /// Whether the server is running.
    public var isRunning: Bool { address != nil }

    /// Binds both listeners and starts serving. Returns as soon as both ports are bound.
    ///
    /// Calling it on a running server does nothing; a stopped server can be started again (on new
    /// ports, when they were 0).
    ///
    /// - Throws: ``SocketCallError`` naming the call and address, such as
    ///   `bind(127.0.0.1:8080): Address already in use`.
    public func start() throws {
        try state.withLock { state in
            if case .running = state { return }
            state = .running(try launch())
        }
        core.logger.log(.info, "listening on \(address?.description ?? "?")\(dataPort == 0 ? "" : " (data port \(dataPort))")")
    }

    /// Binds both listeners and starts serving; the form for `async` code.
    public func start() async throws {
        let start: () throws -> Void = start
        try start()
    }

    /// Closes the listeners and every connection, and waits for the server's thread to end.
    ///
    /// Idempotent; the ports are free again when it returns.
    public func stop() {
        let running: Running? = state.withLock { state in
            guard case .running(let running) = state else { return nil }
            state = .stopped
            return running
        }
        guard let running else { return }
        running.local?.connector.shut()
        for action in running.stopActions.withLock({ $0 }) { action() }
        running.server.stop()
        core.logger.log(.info, "stopped")
    }

    /// Closes the listeners and every connection without blocking a Swift concurrency thread.
    public func stop() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                self.stop()
                continuation.resume()
            }
        }
    }

    /// How the server's connections are served, and the settings their drivers are made with: the
    /// connections of the protocol the server was made to serve, or of the one that claims the
    /// script's scheme (FTP's for no scheme, in the standard vocabulary; a script whose scheme no
    /// protocol claims, one built in code, is read as lines, or raw reads); then as each of the
    /// server's protocols composes them, in order, over the configuration's settings.
    private func composedConnections() throws -> (ScriptConnections, ScriptSettings) {
        let responder = core.responder
        let script = responder.responseScript
        var connections = serving?.connections(framing: responder.framing) ?? ScriptConnections.of(scriptProtocol(of: responder), framing: responder.framing)
        var settings = configuration.settings
        for composer in protocols(of: script) {
            connections = try composer.compose(connections, script: script, settings: &settings)
        }
        return (connections, settings)
    }

    /// The server's protocols, and the script's own when the server's vocabulary does not have it
    /// (a protocol added from outside, through the script's vocabulary).
    private func protocols(of script: ResponseScript?) -> [any ScriptProtocol] {
        var protocols = vocabulary.protocols
        if let own = script?.scriptProtocol, !protocols.contains(where: { $0.name == own.name }) { protocols.append(own) }
        return protocols
    }

    /// The routes the server's protocols add to the control API, each with its protocol's name:
    /// those of the vocabulary's and the script's protocols, and of the protocol the server was
    /// made to serve (a mail server's, which is in no vocabulary) when none of those is it.
    package var protocolAdminRoutes: [(owner: String, route: ScriptVocabulary.AdminRoute)] {
        var owners = protocols(of: core.responder.responseScript)
        if let serving, !owners.contains(where: { $0.name == serving.name }) { owners.append(serving) }
        return owners.flatMap { owner in owner.adminRoutes.map { (owner: owner.name, route: $0) } }
    }

    /// The protocol that claims the responder's script's scheme: as the script's vocabulary said, or the server's.
    private func scriptProtocol(of responder: any ScriptResponder) -> (any ScriptProtocol)? {
        let script = responder.responseScript
        return script?.scriptProtocol ?? vocabulary.claimant(ofScheme: script?.scheme)
    }

    /// Binds the listeners the protocol asks for (the main port, then its own, such as FTP's shared
    /// data port) and starts the loop thread.
    private func launch() throws -> Running {
        let (connections, settings) = try composedConnections()
        if let script = core.responder.responseScript, let misfit = script.misfit(for: connections.outputType) {
            throw ResponseFileError(.invalidValue(path: "sets.\(misfit.set).\(misfit.response)",
                                                  reason: "\(misfit.command) is a command for connections this script does not have: it is framed as \(script.framing.rawValue)"),
                                    file: script.file)
        }
        let requested = try NetworkAddress(host: configuration.host, port: configuration.port)
        var addresses = [requested]
        // The first of the protocol's own listeners binds the configured data port.
        for index in connections.listeners.indices {
            addresses.append(try NetworkAddress(host: requested.host, port: index == 0 ? configuration.dataPort : 0))
        }
        let core = self.core
        let configuration = self.configuration
        // The substitution values, and so the drivers, depend on the bound ports.
        let prepare: ([NetworkAddress]) -> (ScriptConnectionContext, @Sendable () -> any StreamDriver) = { bound in
            // Each of the protocol's own listeners gives the values its bound port means (FTP's `$dataport`).
            let values = zip(connections.listeners, bound.dropFirst()).reduce(ScriptSettings()) { $0.merging($1.0.values($1.1.port)) }
            let base = SubstitutionContext(address: bound[0].host, serverName: configuration.serverName, port: bound[0].port,
                                           protocolValues: values, now: configuration.clock)
            let context = ScriptConnectionContext(server: core, base: base, settings: settings)
            return (context, connections.drivers(context))
        }
        // One TLS context for the server's life: made here, so that a bad identity fails start().
        let tls = try configuration.tls.map { tls throws(TLSError) in try TLSContext(tls, applicationProtocols: connections.applicationProtocols) }
        let implicitTLS = configuration.tls?.mode == .implicit ? tls : nil
        let recordsOutput = connections.recordsOutput
        let listeners: @Sendable (EventLoop, [Socket], (ScriptConnectionContext, @Sendable () -> any StreamDriver)) -> [Listener] = { loop, sockets, prepared in
            let (context, makeDriver) = prepared
            // `«starttls»` finds the context on the loop.
            if let tls { _ = loop.attachment(TLSContext.self) { tls } }
            // A connection that switches to a script (an endpoint's "upgrade") finds the server here.
            _ = loop.attachment(ScriptServerOnLoop.self) { ScriptServerOnLoop(server: core, base: context.base) }
            var listeners = [Listener(socket: sockets[0], loop: loop) { [unowned loop] client in
                if let implicitTLS {
                    try StreamConnection.acceptingTLS(socket: client, loop: loop, driver: makeDriver(), context: implicitTLS, recordsOutput: recordsOutput).start()
                } else {
                    try StreamConnection(socket: client, loop: loop, driver: makeDriver(), recordsOutput: recordsOutput).start()
                }
            }]
            for (listener, socket) in zip(connections.listeners, sockets.dropFirst()) {
                listeners.append(listener.make(socket, loop, context))
            }
            return listeners
        }
        let (server, (context, makeDriver)) = try LoopServer.start(binding: addresses, environment: core.environment, prepare: prepare, listeners: listeners)
        let local = connections.localResponder.map { responder in
            (connector: LoopConnector(inbox: server.inbox, makeDriver: makeDriver), responder: responder(context))
        }
        return Running(server: server, address: server.addresses[0], dataAddress: server.addresses.count > 1 ? server.addresses[1] : nil,
                       local: local)
    }
}
