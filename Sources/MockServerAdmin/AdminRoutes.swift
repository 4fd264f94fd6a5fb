import Foundation
import MockServerCore
import MockServerEngine
import MockServerHTTP
import MockServerScript
import MockServerWebSocket

/// Every route of the control API, in the order the 404 lists them: the one place that says which
/// method and path a handler answers.
enum AdminRoutes {
    /// The routes.
    static let all: [AdminRoute] = [
        AdminRoute(method: "GET", path: .exact("/"), usages: ["GET /"], handle: dashboard),
        AdminRoute(method: "GET", path: .exact("/transcript"), usages: ["GET /transcript?since=N&wait=S"], handle: transcript),
        AdminRoute(method: "GET", path: .exact("/info"), usages: ["GET /info"]) { call in .reply(AdminResponder.json(AdminInspection.info(call.target))) },
        AdminRoute(method: "GET", path: .exact("/sets"), usages: ["GET /sets"]) { call in .reply(AdminResponder.json(AdminInspection.sets(call.target))) },
        AdminRoute(method: "GET", path: .exact("/stubs"), usages: ["GET /stubs"]) { call in .reply(AdminResponder.json(AdminInspection.stubs(call.target.stubs))) },
        AdminRoute(method: "GET", path: .exact("/unexpected"), usages: ["GET /unexpected"]) { call in .reply(AdminResponder.json(AdminInspection.unexpected(call.target.stubs))) },
        AdminRoute(method: "GET", path: .prefix("/files/", restMayBeEmpty: false), usages: ["GET /files/PATH"], handle: file),
        AdminRoute(method: "GET", path: .exact("/unmatched"), usages: ["GET /unmatched"]) { call in .reply(AdminResponder.json(AdminInspection.unmatched(call.server))) },
        AdminRoute(method: "GET", path: .exact("/uploads"), usages: ["GET /uploads"], handle: uploads),
        AdminRoute(method: "GET", path: .prefix("/uploads/", restMayBeEmpty: true), usages: ["GET /uploads/NAME"], handle: upload),
        AdminRoute(method: "GET", path: .exact("/files"), usages: ["GET /files"]) { call in .reply(AdminResponder.json(AdminInspection.files(call.server))) },
        AdminRoute(method: "PUT", path: .prefix("/files/", restMayBeEmpty: false), usages: ["PUT /files/PATH"], handle: storeFile),
        AdminRoute(method: "DELETE", path: .prefix("/files/", restMayBeEmpty: true), usages: ["DELETE /files/PATH"], handle: removeFile),
        AdminRoute(method: "POST", path: .exact("/set"), usages: ["POST /set"], handle: switchSet),
        AdminRoute(method: "POST", path: .exact("/endpoints"), usages: ["POST /endpoints"], handle: addEndpoints),
        AdminRoute(method: "POST", path: .exact("/reset"), usages: ["POST /reset"], handle: reset),
        AdminRoute(method: "GET", path: .exact("/wait"), usages: ["GET /wait?input=REGEX&timeout=S", "GET /wait?connections=0&timeout=S"], handle: wait),
        AdminRoute(method: "POST", path: .exact("/shutdown"), usages: ["POST /shutdown"], handle: shutdown),
        AdminRoute(method: "GET", path: .exact("/tls/ca.pem"), usages: ["GET /tls/ca.pem"], handle: certificateAuthority),
        AdminRoute(method: "GET", path: .exact("/websocket/connections"), usages: ["GET /websocket/connections"]) { call in
            let server = call.server
            return .asynchronous { AdminResponder.json(.object(["connections": AdminJSON.numbers(await server.openWebSocketConnections())])) }
        },
        AdminRoute(method: "POST", path: .exact("/websocket/send"), usages: ["POST /websocket/send?connection=N"], handle: webSocketSend),
        AdminRoute(method: "GET", path: .exact("/conditions"), usages: ["GET /conditions"]) { call in
            .reply(AdminResponder.json(.object(["conditions": AdminConditions.encode(call.server.networkConditions)])))
        },
        AdminRoute(method: "PUT", path: .exact("/conditions"), usages: ["PUT /conditions"], handle: setConditions),
        AdminRoute(method: "DELETE", path: .exact("/conditions"), usages: ["DELETE /conditions"]) { call in
            call.server.networkConditions = nil
            return .reply(AdminResponder.json(.object(["conditions": .object([:])])))
        },
    ]

    /// How the 404 lists the routes, in order.
    static let usages = all.flatMap(\.usages)

    /// The built-in routes, then those the mock's protocols add (``MockServer/protocolAdminRoutes``).
    ///
    /// - Throws: ``AdminRouteClash`` for a protocol's route that takes a method and path a route
    ///   before it takes, naming both.
    static func composed(with added: [(owner: String, route: ScriptVocabulary.AdminRoute)]) throws(AdminRouteClash) -> [AdminRoute] {
        var routes = all
        var owners = Array(repeating: "the control API", count: all.count)
        for (owner, added) in added {
            let path: AdminRoute.PathPattern = added.isPrefix ? .prefix(added.path, restMayBeEmpty: false) : .exact(added.path)
            let usage = "\(added.verb) \(added.path)\(added.isPrefix ? "REST" : "")"
            let newcomer = "\(owner)'s \(usage)"
            guard added.path.hasPrefix("/") else { throw AdminRouteClash(newcomer: newcomer, holder: "the control API's paths, which start with /") }
            if let index = routes.indices.first(where: { routes[$0].method == added.verb && routes[$0].path.overlaps(path) }) {
                throw AdminRouteClash(newcomer: newcomer, holder: "\(owners[index])'s \(routes[index].usages[0])")
            }
            let handle = added.handle
            routes.append(AdminRoute(method: added.verb, path: path, usages: [usage]) { call in
                let request = ScriptVocabulary.AdminRoute.Request(query: call.query, body: call.request.body, rest: call.rest)
                return .asynchronous { reply(to: await handle(request).resolved()) }
            })
            owners.append(owner)
        }
        return routes
    }

    /// A protocol route's answer as the control API sends it: JSON, or bytes of their own type.
    /// Bytes come from a peer (a mail's part, say), so a browser opening them must not run them as
    /// a page of the control API's origin, whose requests its guard lets through: they go out
    /// sandboxed, loading nothing, and their type is never sniffed.
    private static func reply(to answer: ScriptVocabulary.AdminRoute.Answer) -> HTTPReply {
        guard let body = answer.body else {
            return HTTPReply(HTTPMockResponse(status: answer.status, headers: ["Content-Type": answer.contentType], body: AdminJSON.encode(answer.json)))
        }
        return HTTPReply(HTTPMockResponse(status: answer.status, headers: ["Content-Type": answer.contentType,
                                                                           "Content-Security-Policy": "sandbox; default-src 'none'",
                                                                           "X-Content-Type-Options": "nosniff"], body: body))
    }

    /// What answers `method` on `path`.
    enum Match {
        /// `route` answers, with `rest` left by its path pattern.
        case route(AdminRoute, rest: String)
        /// Routes take `path`, with other methods (the `Allow` header's, in the table's order).
        case methodNotAllowed(allowed: [String])
        /// No route takes `path`.
        case notFound
    }

    /// The route that answers `method` on `path` in `routes`.
    static func match(_ method: String, _ path: String, in routes: [AdminRoute] = all) -> Match {
        var allowed: [String] = []
        for route in routes {
            guard let rest = route.path.match(path) else { continue }
            if route.method == method { return .route(route, rest: rest) }
            if !allowed.contains(route.method) { allowed.append(route.method) }
        }
        return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed: allowed)
    }

    // MARK: The handlers

    private static func dashboard(_ call: AdminCall) -> HTTPReply.Immediate {
        .reply(HTTPReply(HTTPMockResponse(status: 200, headers: ["Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store",
                                                             "Content-Security-Policy": AdminDashboardPage.contentSecurityPolicy],
                                      body: AdminDashboardPage.page(firstState: AdminInspection.firstState(call.target)))))
    }

    private static func transcript(_ call: AdminCall) throws(AdminFailure) -> HTTPReply.Immediate {
        let since = try call.wholeNumber("since", default: 0)
        let server = call.server
        @Sendable func answer() -> HTTPReply { AdminResponder.json(AdminInspection.transcript(server, since: since)) }
        guard let seconds = try call.seconds("wait", default: nil) else { return .reply(answer()) }
        // A long poll: the answer comes as soon as an entry from `since` on exists, or empty after `wait`.
        return .asynchronous {
            _ = try? await server.transcript.wait(for: "an entry from \(since) on", timeout: .milliseconds(Int(seconds * 1000))) { $0.sequence >= since }
            return answer()
        }
    }

    private static func file(_ call: AdminCall) throws(AdminFailure) -> HTTPReply.Immediate {
        let file = "/" + call.rest
        guard let bytes = call.server.files[file] else { throw AdminFailure(404, "no file at \(file)") }
        return .reply(HTTPReply(HTTPMockResponse(status: 200, headers: ["Content-Type": "application/octet-stream"], body: Array(bytes))))
    }

    private static func uploads(_ call: AdminCall) -> HTTPReply.Immediate {
        .reply(AdminResponder.json(.object(["uploads": .array(call.server.uploads.map {
            .object(["name": .string($0.name), "size": .number($0.data.count), "connection": .number($0.connection)])
        })])))
    }

    private static func upload(_ call: AdminCall) throws(AdminFailure) -> HTTPReply.Immediate {
        let name = call.rest
        let uploads = call.server.uploads
        guard let upload = uploads.last(where: { $0.name == name || $0.name == "/" + name || "/" + $0.name == name }) else {
            throw AdminFailure(404, "no upload named \(name) (uploads: \(uploads.map(\.name).joined(separator: ", ")))")
        }
        return .reply(HTTPReply(HTTPMockResponse(status: 200, headers: ["Content-Type": "application/octet-stream"], body: Array(upload.data))))
    }

    private static func storeFile(_ call: AdminCall) -> HTTPReply.Immediate {
        let file = "/" + call.rest
        call.server.storeFile(file, Data(call.request.body))
        return .reply(AdminResponder.json(.object(["stored": .string(file), "size": .number(call.request.body.count)])))
    }

    private static func removeFile(_ call: AdminCall) throws(AdminFailure) -> HTTPReply.Immediate {
        let file = "/" + call.rest
        guard call.server.removeFile(file) else { throw AdminFailure(404, "no file or folder at \(file)") }
        return .reply(AdminResponder.json(.object(["removed": .string(file)])))
    }

    private static func switchSet(_ call: AdminCall) throws(AdminFailure) -> HTTPReply.Immediate {
        let name = try call.jsonString("name", example: "{\"name\": SET}")
        guard call.target.stubs == nil else { throw AdminFailure(409, "this mock serves stubs: it has no response sets (asked for set \(name))") }
        let switched: (any ScriptResponder)?
        do {
            switched = try call.server.responder.usingResponseSet(name)
        } catch {
            throw AdminFailure(400, "\(error)")
        }
        guard let switched else {
            throw AdminFailure(409, "this mock has no response sets: the server's responder is not a PatternResponder, so it has no response sets")
        }
        call.server.responder = switched
        return .reply(AdminResponder.json(.object(["set": .string(name)])))
    }

    private static func addEndpoints(_ call: AdminCall) throws(AdminFailure) -> HTTPReply.Immediate {
        guard let stubs = call.target.stubs else { throw AdminFailure(409, "this mock serves a response script, not endpoints") }
        var bytes = call.request.body
        if bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "[") {
            bytes = Array("{\"endpoints\": ".utf8) + bytes + Array("}".utf8)
        }
        let before = stubs.stubs.count
        do {
            try stubs.addEndpoints(json: bytes, file: "POST /endpoints")
        } catch {
            throw AdminFailure(400, "\(error)")
        }
        return .reply(AdminResponder.json(.object(["added": .number(stubs.stubs.count - before)])))
    }

    private static func reset(_ call: AdminCall) -> HTTPReply.Immediate {
        let server = call.server
        server.transcript.removeAll()
        server.removeUploads()
        if let stubs = call.target.stubs {
            stubs.removeAllStubs()
            stubs.cache.removeAll()
            if let initial = call.target.initialEndpoints { try? stubs.addEndpoints(json: initial) }
        }
        if let set = call.target.initialSet, let switched = try? server.responder.usingResponseSet(set) { server.responder = switched }
        return .reply(AdminResponder.json(.object(["reset": .bool(true)])))
    }

    private static func wait(_ call: AdminCall) throws(AdminFailure) -> HTTPReply.Immediate {
        let seconds = try call.seconds("timeout", default: 10) ?? 10
        let server = call.server
        if let connections = call.query["connections"] {
            guard connections == "0" else {
                throw AdminFailure(400, "connections=\(connections): only connections=0 is offered (wait until every connection has closed)")
            }
            return .asynchronous {
                do {
                    try await server.waitForConnectionsClosed(timeout: .milliseconds(Int(seconds * 1000)))
                    return AdminResponder.json(.object(["connections": .number(0)]))
                } catch is Transcript.Timeout {
                    return AdminResponder.error(408, "\(server.openConnectionCount) connections still open after \(seconds) seconds")
                }
            }
        }
        guard let pattern = call.query["input"], !pattern.isEmpty else { throw AdminFailure(400, "wait needs input=REGEX or connections=0") }
        do {
            _ = try InputPattern(pattern)
        } catch {
            throw AdminFailure(400, "input=\(pattern) is not a valid pattern: \(error)")
        }
        return .asynchronous {
            do {
                let input = try await server.transcript.waitForInput(matching: pattern, timeout: .milliseconds(Int(seconds * 1000)))
                return AdminResponder.json(.object(["input": .string(input.text)]))
            } catch is Transcript.Timeout {
                return AdminResponder.error(408, "no input matched \(pattern) within \(seconds) seconds")
            }
        }
    }

    /// `POST /shutdown`: answers `{"stopping": true}` on a connection it then closes, and once that
    /// connection's close is in the admin server's transcript (the answer was written), asks the
    /// process owner to stop (``AdminResponder/Target/shutdown``). The responder ends nothing itself.
    private static func shutdown(_ call: AdminCall) -> HTTPReply.Immediate {
        let owner = call.target.shutdown
        let transcript = call.context.environment.transcript
        let connection = call.context.connectionID
        let answer = HTTPMockResponse(status: 200, headers: ["Content-Type": "application/json", "Connection": "close"], body: AdminJSON.encode(.object(["stopping": .bool(true)])))
        return .reply(HTTPReply(steps: [.output(.response(answer)), .then {
            Task {
                // Past or future: the close may be recorded before this wait starts. Without it in
                // 10 seconds (a transcript that dropped it), the owner is asked all the same.
                _ = try? await transcript.wait(for: "the connection that asked POST /shutdown to close", timeout: .seconds(10)) { entry in
                    guard entry.connection == connection, case .closed = entry.event else { return false }
                    return true
                }
                owner()
            }
            return [.close]
        }]))
    }

    private static func certificateAuthority(_ call: AdminCall) throws(AdminFailure) -> HTTPReply.Immediate {
        let tls = call.server.configuration.tls
        guard let pem = tls?.identity.caCertificatePEM else {
            throw AdminFailure(404, tls == nil ? "the mock has no TLS (start it with --tls or --starttls)" : "the mock serves its own certificate (--tls-cert): there is no test CA")
        }
        return .reply(HTTPReply(HTTPMockResponse(status: 200, headers: ["Content-Type": "application/x-pem-file"], body: Array(pem.utf8))))
    }

    private static func setConditions(_ call: AdminCall) throws(AdminFailure) -> HTTPReply.Immediate {
        let conditions: NetworkConditions
        do {
            conditions = try AdminConditions.decode(call.request.body)
        } catch {
            throw AdminFailure(400, error.message)
        }
        call.server.networkConditions = conditions
        return .reply(AdminResponder.json(.object(["conditions": AdminConditions.encode(conditions)])))
    }

    /// `POST /websocket/send`: the body as a text message (binary with `application/octet-stream`).
    private static func webSocketSend(_ call: AdminCall) throws(AdminFailure) -> HTTPReply.Immediate {
        let server = call.server
        var connection: Int?
        if let text = call.query["connection"] {
            guard let number = Int(text), number > 0 else { throw AdminFailure(400, "connection must be a connection number, not \(text)") }
            connection = number
        }
        let message: WebSocketConnection.Message
        if call.request.headers["Content-Type"]?.lowercased().hasPrefix("application/octet-stream") == true {
            message = .binary(call.request.body)
        } else {
            guard let text = String(validating: call.request.body, as: UTF8.self) else {
                throw AdminFailure(400, "a text message must be UTF-8; send bytes with Content-Type: application/octet-stream")
            }
            message = .text(text)
        }
        return .asynchronous { [connection] in
            let sent = await server.sendWebSocketMessage(message, toConnection: connection)
            guard sent.isEmpty else { return AdminResponder.json(.object(["sent": AdminJSON.numbers(sent)])) }
            let open = await server.openWebSocketConnections()
            if let connection {
                return AdminResponder.error(404, "no open WebSocket connection \(connection) (open: \(open.isEmpty ? "none" : open.map(String.init).joined(separator: ", ")))")
            }
            return AdminResponder.error(409, "no WebSocket connection is open")
        }
    }
}
