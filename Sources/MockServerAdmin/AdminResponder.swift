import Foundation
import MockServerEngine
import MockServerCore
import MockServerHTTP
import MockServerStubs

/// The control API of a running mock, as JSON over HTTP, for tests in any language (`mockserver
/// --admin`): read the transcript, unmatched inputs and uploads, change the files, switch sets, add
/// endpoints, wait for an input, reset, shut down.
///
/// | request | answer |
/// |---|---|
/// | `GET /transcript?since=N` | `{"entries": [...], "next": M}`: entries from sequence N on |
/// | `GET /unmatched` | `{"entries": [...]}` |
/// | `GET /uploads`, `GET /uploads/NAME` | `{"uploads": [{"name", "size", "connection"}]}`; the bytes of the last upload of NAME |
/// | `GET /files`, `PUT /files/PATH`, `DELETE /files/PATH` | `{"files": {path: size}}`; store the body; remove |
/// | `POST /set` `{"name": …}` | switch every connection to that set |
/// | `POST /endpoints` `[…]` or `{"endpoints": […]}` | add stub endpoints (a stub server only) |
/// | `POST /reset` | transcript, uploads, added endpoints, cache and set back to the start |
/// | `GET /wait?input=REGEX&timeout=S` | `{"input": …}` once a matching input has arrived (past or future); 408 after S seconds |
/// | `GET /wait?connections=0&timeout=S` | `{"connections": 0}` once no connection to the mock is open; 408 after S seconds |
/// | `GET /websocket/connections` | `{"connections": [N, …]}`: the open WebSocket connections' numbers |
/// | `POST /websocket/send?connection=N` | sends the body as a message to connection N (every open one without `connection`): binary with `Content-Type: application/octet-stream`, text with another type (`application/json`, say); `{"sent": [N, …]}` |
/// | `GET /conditions`, `PUT /conditions`, `DELETE /conditions` | the network conditions new connections get (`{}` for none); set them from a JSON body; remove them |
/// | `POST /shutdown` | `{"stopping": true}`, then ``Target/shutdown`` asks the process owner to stop |
///
/// The mock's protocols add routes of their own (``ScriptProtocol/adminRoutes``: an exact path
/// or a path prefix, answered with a status and JSON or bytes of a type of their own, at once or
/// after a wait), after these; one that takes a method and path another route
/// takes stops the responder from being made (``AdminRouteClash``, naming both).
///
/// The routes are one table (method, path pattern, handler); errors are `{"error": "…"}` with a
/// 4xx status naming the culprit; an unknown path is a 404 that lists the paths, a known path asked
/// with another method a 405 with `Allow`. A request that may come from a web page elsewhere (another `Host` or `Origin`,
/// or a body of a type a form can send) is a 403 (`AdminRequestGuard`, Docs/Admin.md).
///
/// ```swift
/// let admin = MockServer(httpResponder: AdminResponder(.init(server: mock, shutdown: { owner.stopAndExit() })),
///                        configuration: .init(host: "127.0.0.1"))
/// try admin.start()
/// ```
package final class AdminResponder: HTTPMockResponder {
    /// What the API controls, and who stops the process.
    package struct Target: Sendable {
        /// The mock.
        package var server: MockServer
        /// The stub server, when the mock is one (for `/endpoints` and `/reset`).
        package var stubs: HTTPMockServer?
        /// The endpoints file the mock started with, added again after `/reset`.
        package var initialEndpoints: [UInt8]?
        /// The set the mock started with, for `/reset`.
        package var initialSet: String?
        /// Asks the process owner to stop (its servers, then the process), once the answer to
        /// `POST /shutdown` has been written and its connection closed; called once per
        /// `/shutdown`, off the server's thread. The responder ends nothing itself.
        package var shutdown: @Sendable () -> Void

        /// Creates a target.
        ///
        /// - Parameters:
        ///   - server: the mock.
        ///   - stubs: the stub server, when the mock is one.
        ///   - initialEndpoints: the endpoints file the mock started with, for `/reset`.
        ///   - initialSet: the set the mock started with, for `/reset`.
        ///   - shutdown: asks the process owner to stop, after `/shutdown` was answered.

        package init(server: MockServer, stubs: HTTPMockServer? = nil, initialEndpoints: [UInt8]? = nil, initialSet: String? = nil,
                    shutdown: @escaping @Sendable () -> Void) {
            self.server = server
            self.stubs = stubs
            self.initialEndpoints = initialEndpoints
            self.initialSet = initialSet
            self.shutdown = shutdown
        }
    }

    private let target: Target
    /// The built-in routes, then those the mock's protocols add.
    private let routes: [AdminRoute]

    /// The paths the API answers without a protocol's routes, as the 404 lists them (from the route table).
    package static let paths: [String] = AdminRoutes.usages

    /// The paths this API answers, its mock's protocols' routes included, as its 404 lists them.
    package var paths: [String] { routes.flatMap(\.usages) }

    /// The largest JSON body a `POST` takes (1 MiB).
    package static let maximumJSON = 1 << 20

    /// The control API of `target`, with the routes its mock's protocols add
    /// (``ScriptProtocol/adminRoutes``).
    ///
    /// - Throws: ``AdminRouteClash`` when a protocol's route takes a method and path another
    ///   route takes, naming both.
    package init(_ target: Target) throws(AdminRouteClash) {
        self.target = target
        self.routes = try AdminRoutes.composed(with: target.server.protocolAdminRoutes)
    }

    package func respond(to request: HTTPMockRequest, context: HTTPRequestContext) async throws -> HTTPReply? {
        switch try answerImmediately(request, context: context) {
        case .reply(let reply): reply
        case .unmatched, .deferred: nil
        case .asynchronous(let answer): try await answer()
        }
    }

    package func answerImmediately(_ request: HTTPMockRequest, context: HTTPRequestContext) throws -> HTTPReply.Immediate {
        let path = PercentCoding.decode(request.path.utf8, strictness: .strict).flatMap(String.init(exactUTF8:)) ?? request.path
        if let port = context.local?.port, let refusal = AdminRequestGuard(port: port).refusal(of: request) {
            context.environment.logger.log(.warning, "control API refused \(request.method) \(path): \(refusal)", connection: context.connectionID)
            return .reply(Self.error(403, refusal))
        }
        if request.method == "POST" || request.method == "PUT" && path == "/conditions", request.body.count > Self.maximumJSON {
            return .reply(Self.error(413, "the body is \(request.body.count) bytes; \(request.method) \(path) takes at most \(Self.maximumJSON) bytes of JSON"))
        }
        switch AdminRoutes.match(request.method, path, in: routes) {
        case .route(let route, let rest):
            let call = AdminCall(target: target, request: request, context: context, rest: rest, query: Self.query(request.query))
            do {
                return try route.handle(call)
            } catch {
                return .reply(error.reply)
            }
        case .methodNotAllowed(let allowed):
            let allow = allowed.joined(separator: ", ")
            return .reply(HTTPReply(HTTPMockResponse(status: 405, headers: ["Content-Type": "application/json", "Allow": allow],
                                                 body: AdminJSON.encode(.object(["error": .string("\(request.method) is not allowed on \(path) (allowed: \(allow))")])))))
        case .notFound:
            return .reply(HTTPReply(HTTPMockResponse(status: 404, headers: ["Content-Type": "application/json"],
                                                 body: AdminJSON.encode(.object(["error": .string("no admin path \(request.method) \(path)"),
                                                                                 "paths": AdminJSON.strings(paths)])))))
        }
    }

    /// `entry` as one line of JSON (what `--transcript FILE` writes), with its newline.
    package static func jsonLine(_ entry: Transcript.Entry) -> [UInt8] { AdminJSON.line(entry) }

    /// The query's fields by name (the last of a repeated name), read as every query is (HTTPFormFields).
    private static func query(_ text: String?) -> [String: String] {
        Dictionary(HTTPFormFields.parse((text ?? "")[...]).map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
    }

    static func json(_ value: JSONNode) -> HTTPReply {
        HTTPReply(HTTPMockResponse(status: 200, headers: ["Content-Type": "application/json"], body: AdminJSON.encode(value)))
    }

    static func error(_ status: Int, _ message: String) -> HTTPReply {
        HTTPReply(HTTPMockResponse(status: status, headers: ["Content-Type": "application/json"], body: AdminJSON.encode(.object(["error": .string(message)]))))
    }
}
