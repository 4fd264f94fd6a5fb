import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(HotPath) import MockServerCore
import MockServerEngine
import MockServerHTTP
import MockServerHTTP2
import MockServerHTTPScript
import MockServerInProcess
import MockServerMockData
import MockServerScript
import MockServerWebSocket

/// An HTTP server of stubs (Nocilla's DSL) and endpoints with closures and a shared cache
/// (Voodoo's), on a port the system picks.
///
/// ```swift
/// let server = HTTPMockServer()
/// server.stubRequest("POST", "/dogs.json")
///     .withHeaders(["Accept": "application/json"])
///     .withBody(#"{"name":"foo"}"#)
///     .andReturn(201)
///     .withHeaders(["Content-Type": "application/json"])
///     .withBody(#"{"ok":true}"#)
/// server.add(.GET, "/config/:version") { request, cache in
///     request.pathParameters.version == "1.0" ? .ok() : .badRequest()
/// }
/// try await server.start()
/// ```
///
/// The most recently added stub that matches a request answers it, so a test can override a
/// default added in `setUp`. A request that no stub matches is answered `500` with the header
/// `X-MockServer: Unexpected Request` and a body that shows the request, the `stubRequest` line that
/// would answer it and the nearest stub with the part that differed; the transcript records it as
/// unmatched. Keep-alive, pipelining and `Expect: 100-continue` work as for scripts.
public final class HTTPMockServer: Sendable {
    /// The server underneath: its transcript, ports and lifecycle.
    public let server: MockServer
    private let router: StubRouter
    /// The protocols an endpoint's `"upgrade"` script may speak.
    private let vocabulary: ScriptVocabulary

    /// Creates a stopped server whose endpoints' `"upgrade"` scripts speak the protocols of
    /// `vocabulary` (the facade's public initializer gives the standard one).
    package init(configuration: MockServer.Configuration, vocabulary: ScriptVocabulary) {
        let router = StubRouter()
        self.router = router
        self.vocabulary = vocabulary
        self.server = MockServer(httpResponder: router, configuration: configuration, vocabulary: vocabulary)
    }

    /// Binds the port and starts serving.
    ///
    /// - Throws: ``SocketCallError`` naming the call and address.
    public func start() throws { try server.start() }

    /// Binds the port and starts serving; the form for `async` code.
    public func start() async throws { try await server.start() }

    /// Closes the listener and every connection; idempotent.
    public func stop() { server.stop() }

    /// Closes the listener and every connection without blocking a Swift concurrency thread.
    public func stop() async { await server.stop() }

    /// The bound port, or 0 when the server is not running.
    public var port: UInt16 { server.port }

    /// `http://127.0.0.1:PORT/path`.
    public func url(for path: String = "/") -> URL { server.url(for: path) }

    /// Makes sessions of `configuration` answered in-process; see ``MockServer/installInProcess(in:hosts:)``.
    public func installInProcess(in configuration: URLSessionConfiguration, hosts: [String]? = nil) throws {
        try server.installInProcess(in: configuration, hosts: hosts)
    }

    /// A new session answered in-process; see ``MockServer/makeInProcessSession(configuration:hosts:)``.
    public func makeInProcessSession(configuration: URLSessionConfiguration = .ephemeral, hosts: [String]? = nil) throws -> URLSession {
        try server.makeInProcessSession(configuration: configuration, hosts: hosts)
    }

    /// A new session that trusts this server's test CA besides the system's roots; see
    /// ``MockServer/trustingSession(configuration:)`` (on Linux it throws for a generated identity).
    public func trustingSession(configuration: URLSessionConfiguration = .ephemeral) throws -> URLSession {
        try server.trustingSession(configuration: configuration)
    }

    /// Answers `URLSession.shared` in-process; see ``MockServer/installInProcessForSharedSession(hosts:)``.
    public func installInProcessForSharedSession(hosts: [String] = []) throws {
        try server.installInProcessForSharedSession(hosts: hosts)
    }

    /// Stops answering `URLSession.shared` in-process.
    public func uninstallInProcessForSharedSession() {
        server.uninstallInProcessForSharedSession()
    }

    /// Sends `message` to the open WebSocket connections of stubs that upgraded (all of them, or
    /// the one numbered `connection`); see ``MockServer/sendWebSocketMessage(_:toConnection:)``.
    ///
    /// ```swift
    /// await stubs.sendWebSocketMessage(.text("price 42"))
    /// ```
    @discardableResult
    public func sendWebSocketMessage(_ message: WebSocketConnection.Message, toConnection connection: Int? = nil) async -> [Int] {
        await server.sendWebSocketMessage(message, toConnection: connection)
    }

    /// The numbers of the WebSocket connections open now; see ``MockServer/openWebSocketConnections()``.
    public func openWebSocketConnections() async -> [Int] {
        await server.openWebSocketConnections()
    }

    /// Everything that happened on the server's connections.
    public var transcript: Transcript { server.transcript }

    /// The values every endpoint closure shares; they live as long as the server.
    public var cache: SharedValues { router.cache }

    /// Stubs requests with `method` for `url`: a path (`/dogs.json`, matching any query), a path and
    /// query (`/search?q=x`, that query exactly), a full URL (its path and query are used), or a
    /// template with `:name` segments (`/dogs/:id`).
    @discardableResult
    public func stubRequest(_ method: String, _ url: String) -> Stub.RequestBuilder {
        Stub.RequestBuilder(stub: router.add(method: method, target: StubTarget(url)), path: StubTarget(url).grpcPath, schema: router.schema)
    }

    /// Stubs requests with `method` whose target (path and query) contains a match of `pattern`.
    ///
    /// - Throws: ``PatternError`` when the pattern does not compile.
    @discardableResult
    public func stubRequest(_ method: String, matching pattern: String) throws -> Stub.RequestBuilder {
        Stub.RequestBuilder(stub: router.add(method: method, target: .pattern(try InputPattern(pattern))))
    }

    /// Adds an endpoint whose response a closure computes, with the request (`pathParameters` from
    /// the template's `:name` segments) and the server's ``cache``. The closure may `await` and
    /// throw: a thrown error is answered with a 500 naming it.
    @discardableResult
    public func add(_ method: Stub.Method, _ path: String,
                    _ handler: @escaping @Sendable (Stub.Request, SharedValues) async throws -> Stub.Response) -> Stub {
        router.add(method: method.rawValue, target: StubTarget(path), answer: .handler(handler))
    }

    /// Loads gRPC schemas: `.proto` files (proto2 or proto3, named as protoc names them from
    /// `protoPaths`, which default to the current directory) and descriptor sets (as `protoc
    /// --descriptor_set_out --include_imports` writes them), with google/protobuf's and google/rpc's
    /// files built in. Endpoints added after it may give gRPC messages and request patterns as JSON
    /// (`{"json": {…}}`), and the server answers reflection and health (Docs/GRPC.md). Loading again
    /// replaces what was loaded.
    ///
    /// ```swift
    /// try server.loadProtos(["route_guide.proto"], protoPaths: ["Protos"])
    /// ```
    ///
    /// - Throws: an error whose description names the file, line and column at fault
    ///   (`route_guide.proto:12:3: unknown type Pointt`), or the descriptor set that cannot be read.
    public func loadProtos(_ files: [String], protoPaths: [String] = [], descriptorSets: [String] = []) throws {
        router.loadSchema(try GRPCSchema.load(protoFiles: files, protoPaths: protoPaths, descriptorSets: descriptorSets))
    }

    /// Adds the endpoints of a stub script (a response file whose top level is `"endpoints"`; see
    /// `Docs/ResponseFormat.md`): its first matching entry answers, after every stub added in code.
    /// The file's `conditions`, if any, become the server's ``MockServer/networkConditions`` unless
    /// it has some already (from its configuration, `--latency`, or an earlier file).
    ///
    /// - Throws: ``ResponseFileError`` naming the key or value at fault, with line and column.
    public func addEndpoints(json: [UInt8], file: String? = nil) throws(ResponseFileError) {
        let script = try EndpointScript(json: json, file: file, vocabulary: vocabulary, schema: router.schema)
        if server.configuration.settings[MockServer.HTTP2ServerSettings.self]?.mode == .refuse {
            // A reset or GOAWAY needs HTTP/2: refused at load, where the file says it.
            for endpoint in script.endpoints {
                if let refusal = endpoint.responses.lazy.compactMap({ $0.fault?.refusedOnHTTP11 }).first { throw refusal }
            }
        }
        router.addEndpoints(script)
        if let conditions = script.conditions, server.networkConditions == nil { server.networkConditions = conditions }
    }

    /// Adds the endpoints of the stub script at `url`; see ``addEndpoints(json:file:)``.
    ///
    /// - Throws: ``ResponseFileError`` when the file cannot be read or is not a stub script; for a
    ///   copy of a package's resource (`Bundle.module`), it names the source file too.
    public func addEndpoints(contentsOf url: URL) throws(ResponseFileError) {
        do throws(ResponseFileError) {
            let bytes: [UInt8]
            do {
                bytes = Array(try Data(contentsOf: url))
            } catch {
                throw ResponseFileError(.unreadable(reason: (error as NSError).localizedDescription), file: url.path, location: nil)
            }
            try addEndpoints(json: bytes, file: url.path)
        } catch {
            // A copy of a resource (`Bundle.module`): the error names its source too.
            var error = error
            error.sourceFile = ResourceSource.sourceFile(ofCopy: url.path)
            throw error
        }
    }

    /// Adds a folder of mock-data files (VOKMockUrlProtocol's naming; see ``MockDataNaming``),
    /// searched for requests that no stub or endpoint answers, after the folders added before it.
    /// A request nothing answers then gets a 404 that lists every file name tried.
    public func addMockData(_ responder: MockDataResponder) {
        router.addMockData(responder)
    }

    /// Adds the mock-data files in `folder`; see ``addMockData(_:)``.
    ///
    /// - Throws: ``MockDataError`` naming the folder, or the first bad file with its line.
    @discardableResult
    public func addMockData(folder: URL, allowsWildcards: Bool = false) throws(MockDataError) -> MockDataResponder {
        let responder = try MockDataResponder(folder: folder, allowsWildcards: allowsWildcards)
        addMockData(responder)
        return responder
    }

    /// Adds the mock-data folder `name` of `bundle` (`resources: [.copy("VOKMockData")]`, `in: .module`);
    /// see ``addMockData(_:)``.
    ///
    /// - Throws: ``MockDataError`` when the bundle has no such folder, or a file is bad.
    @discardableResult
    public func addMockData(named name: String = "VOKMockData", in bundle: Bundle, allowsWildcards: Bool = false) throws(MockDataError) -> MockDataResponder {
        let responder = try MockDataResponder(named: name, in: bundle, allowsWildcards: allowsWildcards)
        addMockData(responder)
        return responder
    }

    /// Whether `json` is a stub script (its top level has `"endpoints"`) rather than a response script.
    public static func isEndpointScript(_ json: [UInt8]) -> Bool {
        EndpointScript.isEndpointFile(json)
    }

    /// Every stub and endpoint, oldest first.
    public var stubs: [Stub] { router.all }

    /// The stubs that have answered no request yet.
    public var unusedStubs: [Stub] { router.all.filter { $0.hits == 0 } }

    /// How many requests for `method` and `path` the stubs answered. `path` is either a stub's own,
    /// as it was added (`/v1/blobs/:name`: every request that stub answered), or a request's path
    /// (`/v1/blobs/42`, with or without percent escapes: the requests for that path, whichever stub
    /// answered them).
    ///
    /// ```swift
    /// server.stubRequest("GET", "/v1/blobs/:name").andReturn(200)
    /// // after GET /v1/blobs/42 and GET /v1/blobs/43:
    /// server.hitCount("GET", "/v1/blobs/:name")   // 2
    /// server.hitCount("GET", "/v1/blobs/42")      // 1
    /// ```
    public func hitCount(_ method: String, _ path: String) -> Int {
        let method = method.uppercased()
        let added = "\(method) \(path)"
        return router.all.reduce(0) { total, stub in
            if stub.description == added { return total + stub.hits }
            guard stub.method == method else { return total }
            return total + stub.answered.count(forPath: path)
        }
    }

    /// Declares that the stubs `build` adds answer their requests in the order they are added:
    /// every request of one before any request of the next. A strict test
    /// (`withHTTPMockServer(strict: true)`) fails for a request out of that order; so does
    /// ``strictVerificationReports`` list it.
    ///
    /// ```swift
    /// server.inOrder {
    ///     server.stubRequest("POST", "/login").andReturn(200)
    ///     server.stubRequest("GET", "/items").andReturn(200).withBody("[]")
    /// }
    /// ```
    @discardableResult
    public func inOrder<Result>(_ build: () throws -> Result) rethrows -> Result {
        let before = Set(router.all.map(ObjectIdentifier.init))
        let result = try build()
        router.declareOrder(router.all.filter { !before.contains(ObjectIdentifier($0)) })
        return result
    }

    /// What strict verification finds, one report each: a stub that answered no request, and a
    /// request that arrived out of an order declared with ``inOrder(_:)``. `withHTTPMockServer(strict:
    /// true)` and `MockServerTestCase` with `isStrict` fail the test with each.
    public var strictVerificationReports: [String] {
        StrictVerification.reports(stubs: router.all, orders: router.declaredOrders)
    }

    /// Which stub the unexpected-request reports offer to paste: Swift for a test (the default),
    /// or a JSON endpoint entry for a stub script (what `mockserver FILE` serving one sets).
    ///
    /// ```swift
    /// server.unexpectedRequestSnippet = .endpoint
    /// ```
    public var unexpectedRequestSnippet: UnexpectedRequestReport.Snippet {
        get { router.reportSnippet.withLock { $0 } }
        set { router.reportSnippet.withLock { $0 = newValue } }
    }

    /// The requests that no stub matched, in order.
    public var unexpectedRequests: [HTTPMockRequest] { router.unexpectedRequests.map(\.request) }

    /// The reports of the requests that no stub matched, in order: the text each 500 showed.
    public var unexpectedRequestReports: [UnexpectedRequestReport] { router.unexpectedRequests }

    /// What endpoint closures threw, in order (each request was answered with a 500 naming it):
    /// the stub, the request and the error.
    public var handlerFailures: [String] { router.handlerFailures }

    /// Removes every stub and endpoint (the cache stays).
    public func removeAllStubs() { router.removeAll() }
}
