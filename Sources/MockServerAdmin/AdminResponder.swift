import Foundation
import MockServer
import MockServerCore

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
/// | `POST /shutdown` | `{"stopping": true}`, then the process ends |
///
/// Errors are `{"error": "…"}` with a 4xx status naming the culprit; an unknown path is a 404 that
/// lists the paths. A request that may come from a web page elsewhere (another `Host` or `Origin`,
/// or a body of a type a form can send) is a 403 (`AdminRequestGuard`, Docs/Admin.md).
///
/// ```swift
/// let admin = MockServer(httpResponder: AdminResponder(.init(server: mock, shutdown: { exit(0) })),
///                        configuration: .init(host: "127.0.0.1"))
/// try admin.start()
/// ```
public final class AdminResponder: HTTPResponder {
    /// What the API controls and how it ends the process.
    public struct Target: Sendable {
        /// The mock.
        public var server: MockServer
        /// The stub server, when the mock is one (for `/endpoints` and `/reset`).
        public var stubs: HTTPMockServer?
        /// The endpoints file the mock started with, added again after `/reset`.
        public var initialEndpoints: [UInt8]?
        /// The set the mock started with, for `/reset`.
        public var initialSet: String?
        /// Ends the process, after `/shutdown` has been answered.
        public var shutdown: @Sendable () -> Void

        public init(server: MockServer, stubs: HTTPMockServer? = nil, initialEndpoints: [UInt8]? = nil, initialSet: String? = nil,
                    shutdown: @escaping @Sendable () -> Void) {
            self.server = server
            self.stubs = stubs
            self.initialEndpoints = initialEndpoints
            self.initialSet = initialSet
            self.shutdown = shutdown
        }
    }

    private let target: Target

    /// The paths the API answers, as the 404 lists them.
    public static let paths = ["GET /", "GET /transcript?since=N&wait=S", "GET /info", "GET /sets", "GET /stubs", "GET /unexpected", "GET /files/PATH", "GET /unmatched", "GET /uploads", "GET /uploads/NAME", "GET /files", "PUT /files/PATH",
                               "DELETE /files/PATH", "POST /set", "POST /endpoints", "POST /reset", "GET /wait?input=REGEX&timeout=S", "GET /wait?connections=0&timeout=S", "POST /shutdown",
                               "GET /tls/ca.pem", "GET /websocket/connections", "POST /websocket/send?connection=N", "GET /conditions", "PUT /conditions", "DELETE /conditions"]

    /// The largest JSON body a `POST` takes (1 MiB).
    public static let maximumJSON = 1 << 20

    public init(_ target: Target) {
        self.target = target
    }

    public func respond(to request: HTTPRequest, context: HTTPRequestContext) async throws -> HTTPReply? {
        switch try answerImmediately(request, context: context) {
        case .reply(let reply): reply
        case .unmatched, .deferred: nil
        case .asynchronous(let answer): try await answer()
        }
    }

    public func answerImmediately(_ request: HTTPRequest, context: HTTPRequestContext) throws -> HTTPImmediateAnswer {
        let path = PercentCoding.decode(request.path.utf8, strictness: .strict).flatMap(String.init(exactUTF8:)) ?? request.path
        let query = Self.query(request.query)
        let server = target.server
        if let port = context.local?.port, let refusal = AdminRequestGuard(port: port).refusal(of: request) {
            context.environment.logger.log(.warning, "control API refused \(request.method) \(path): \(refusal)", connection: context.connectionID)
            return .reply(Self.error(403, refusal))
        }
        if request.method == "POST" || request.method == "PUT" && path == "/conditions", request.body.count > Self.maximumJSON {
            return .reply(Self.error(413, "the body is \(request.body.count) bytes; \(request.method) \(path) takes at most \(Self.maximumJSON) bytes of JSON"))
        }
        switch (request.method, path) {
        case ("GET", "/"):
            return .reply(HTTPReply(HTTPResponse(status: 200, headers: ["Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store",
                                                                        "Content-Security-Policy": AdminDashboardPage.contentSecurityPolicy],
                                                 body: AdminDashboardPage.page(firstState: AdminInspection.firstState(target)))))
        case ("GET", "/transcript"):
            guard let since = Int(query["since"] ?? "0"), since >= 0 else { return .reply(Self.error(400, "since must be a whole number, not \(query["since"] ?? "")")) }
            @Sendable func answer() -> HTTPReply { Self.json(AdminInspection.transcript(server, since: since)) }
            guard let wait = query["wait"] else { return .reply(answer()) }
            guard let seconds = Double(wait), seconds >= 0, seconds <= 3600 else {
                return .reply(Self.error(400, "wait must be seconds from 0 to 3600, not \(wait)"))
            }
            // A long poll: the answer comes as soon as an entry from `since` on exists, or empty after `wait`.
            return .asynchronous {
                _ = try? await server.transcript.wait(for: "an entry from \(since) on", timeout: .milliseconds(Int(seconds * 1000))) { $0.sequence >= since }
                return answer()
            }
        case ("GET", "/info"):
            return .reply(Self.json(AdminInspection.info(target)))
        case ("GET", "/sets"):
            return .reply(Self.json(AdminInspection.sets(target)))
        case ("GET", "/stubs"):
            return .reply(Self.json(AdminInspection.stubs(target.stubs)))
        case ("GET", "/unexpected"):
            return .reply(Self.json(AdminInspection.unexpected(target.stubs)))
        case ("GET", _) where path.hasPrefix("/files/") && path.count > "/files/".count:
            let file = String(path.dropFirst("/files".count))
            guard let bytes = server.files[file] else { return .reply(Self.error(404, "no file at \(file)")) }
            return .reply(HTTPReply(HTTPResponse(status: 200, headers: ["Content-Type": "application/octet-stream"], body: Array(bytes))))
        case ("GET", "/unmatched"):
            return .reply(Self.json(AdminInspection.unmatched(server)))
        case ("GET", "/uploads"):
            return .reply(Self.json(["uploads": server.uploads.map { ["name": $0.name, "size": $0.data.count, "connection": $0.connection] }]))
        case ("GET", _) where path.hasPrefix("/uploads/"):
            let name = String(path.dropFirst("/uploads/".count))
            guard let upload = server.uploads.last(where: { $0.name == name || $0.name == "/" + name || "/" + $0.name == name }) else {
                return .reply(Self.error(404, "no upload named \(name) (uploads: \(server.uploads.map(\.name).joined(separator: ", ")))"))
            }
            return .reply(HTTPReply(HTTPResponse(status: 200, headers: ["Content-Type": "application/octet-stream"], body: Array(upload.data))))
        case ("GET", "/tls/ca.pem"):
            guard let pem = server.configuration.tls?.identity.caCertificatePEM else {
                let why = server.configuration.tls == nil ? "the mock has no TLS (start it with --tls or --starttls)" : "the mock serves its own certificate (--tls-cert): there is no test CA"
                return .reply(Self.error(404, why))
            }
            return .reply(HTTPReply(HTTPResponse(status: 200, headers: ["Content-Type": "application/x-pem-file"], body: Array(pem.utf8))))
        case ("GET", "/files"):
            return .reply(Self.json(AdminInspection.files(server)))
        case ("PUT", _) where path.hasPrefix("/files/") && path.count > "/files/".count:
            server.storeFile(String(path.dropFirst("/files".count)), Data(request.body))
            return .reply(Self.json(["stored": String(path.dropFirst("/files".count)), "size": request.body.count]))
        case ("DELETE", _) where path.hasPrefix("/files/"):
            let file = String(path.dropFirst("/files".count))
            return .reply(server.removeFile(file) ? Self.json(["removed": file]) : Self.error(404, "no file or folder at \(file)"))
        case ("POST", "/set"):
            let object: [String: Any]
            switch Self.object(request.body) {
            case .success(let value): object = value
            case .failure(let box): return .reply(box.reply)
            }
            guard let name = object["name"] as? String else { return .reply(Self.error(400, "the body must be {\"name\": SET}")) }
            guard target.stubs == nil else { return .reply(Self.error(409, "this mock serves stubs: it has no response sets (asked for set \(name))")) }
            do {
                try server.useResponseSet(name)
            } catch let error as MockServerError {
                return .reply(Self.error(409, "this mock has no response sets: \(error)"))
            } catch {
                return .reply(Self.error(400, "\(error)"))
            }
            return .reply(Self.json(["set": name]))
        case ("POST", "/endpoints"):
            guard let stubs = target.stubs else { return .reply(Self.error(409, "this mock serves a response script, not endpoints")) }
            var bytes = request.body
            if bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "[") {
                bytes = Array("{\"endpoints\": ".utf8) + bytes + Array("}".utf8)
            }
            let before = stubs.stubs.count
            do {
                try stubs.addEndpoints(json: bytes, file: "POST /endpoints")
            } catch {
                return .reply(Self.error(400, "\(error)"))
            }
            return .reply(Self.json(["added": stubs.stubs.count - before]))
        case ("POST", "/reset"):
            server.transcript.removeAll()
            server.removeUploads()
            if let stubs = target.stubs {
                stubs.removeAllStubs()
                stubs.cache.removeAll()
                if let initial = target.initialEndpoints { try? stubs.addEndpoints(json: initial) }
            }
            if let set = target.initialSet { try? server.useResponseSet(set) }
            return .reply(Self.json(["reset": true]))
        case ("GET", "/wait"):
            guard let seconds = Double(query["timeout"] ?? "10"), seconds >= 0, seconds <= 3600 else {
                return .reply(Self.error(400, "timeout must be seconds from 0 to 3600, not \(query["timeout"] ?? "")"))
            }
            if let connections = query["connections"] {
                guard connections == "0" else {
                    return .reply(Self.error(400, "connections=\(connections): only connections=0 is offered (wait until every connection has closed)"))
                }
                return .asynchronous {
                    do {
                        try await server.waitForConnectionsClosed(timeout: .milliseconds(Int(seconds * 1000)))
                        return Self.json(["connections": 0])
                    } catch is TranscriptTimeout {
                        return Self.error(408, "\(server.openConnectionCount) connections still open after \(seconds) seconds")
                    }
                }
            }
            guard let pattern = query["input"], !pattern.isEmpty else { return .reply(Self.error(400, "wait needs input=REGEX or connections=0")) }
            do {
                _ = try InputPattern(pattern)
            } catch {
                return .reply(Self.error(400, "input=\(pattern) is not a valid pattern: \(error)"))
            }
            return .asynchronous {
                do {
                    let input = try await server.transcript.waitForInput(matching: pattern, timeout: .milliseconds(Int(seconds * 1000)))
                    return Self.json(["input": input.text])
                } catch is TranscriptTimeout {
                    return Self.error(408, "no input matched \(pattern) within \(seconds) seconds")
                }
            }
        case ("GET", "/conditions"):
            return .reply(Self.json(["conditions": AdminConditions.encode(server.networkConditions)]))
        case ("PUT", "/conditions"):
            do {
                let conditions = try AdminConditions.decode(request.body)
                server.networkConditions = conditions
                return .reply(Self.json(["conditions": AdminConditions.encode(conditions)]))
            } catch {
                return .reply(Self.error(400, error.message))
            }
        case ("DELETE", "/conditions"):
            server.networkConditions = nil
            return .reply(Self.json(["conditions": [String: Any]()]))
        case ("GET", "/websocket/connections"):
            return .asynchronous { Self.json(["connections": await server.openWebSocketConnections()]) }
        case ("POST", "/websocket/send"):
            return webSocketSend(request, query: query)
        case ("POST", "/shutdown"):
            let shutdown = target.shutdown
            // Answer first; end the process once the answer is on its way.
            let answer = HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: AdminJSON.encode(["stopping": true]))
            return .reply(HTTPReply(steps: [.response(answer), .then {
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { shutdown() }
                return []
            }]))
        default:
            let known = Self.paths.contains { $0.split(separator: " ")[1].split(separator: "?")[0].replacingOccurrences(of: "NAME", with: "").replacingOccurrences(of: "PATH", with: "") == path }
            if known { return .reply(Self.error(405, "\(request.method) is not allowed on \(path)")) }
            return .reply(HTTPReply(HTTPResponse(status: 404, headers: ["Content-Type": "application/json"],
                                                 body: AdminJSON.encode(["error": "no admin path \(request.method) \(path)", "paths": Self.paths]))))
        }
    }

    /// `POST /websocket/send`: the body as a text message (binary with `application/octet-stream`).
    private func webSocketSend(_ request: HTTPRequest, query: [String: String]) -> HTTPImmediateAnswer {
        let server = target.server
        var connection: Int?
        if let text = query["connection"] {
            guard let number = Int(text), number > 0 else { return .reply(Self.error(400, "connection must be a connection number, not \(text)")) }
            connection = number
        }
        let message: WebSocketMessage
        if request.headers["Content-Type"]?.lowercased().hasPrefix("application/octet-stream") == true {
            message = .binary(request.body)
        } else {
            guard let text = String(validating: request.body, as: UTF8.self) else {
                return .reply(Self.error(400, "a text message must be UTF-8; send bytes with Content-Type: application/octet-stream"))
            }
            message = .text(text)
        }
        return .asynchronous { [connection] in
            let sent = await server.sendWebSocketMessage(message, toConnection: connection)
            guard sent.isEmpty else { return Self.json(["sent": sent]) }
            let open = await server.openWebSocketConnections()
            if let connection {
                return Self.error(404, "no open WebSocket connection \(connection) (open: \(open.isEmpty ? "none" : open.map(String.init).joined(separator: ", ")))")
            }
            return Self.error(409, "no WebSocket connection is open")
        }
    }

    /// `entry` as one line of JSON (what `--transcript FILE` writes), with its newline.
    public static func jsonLine(_ entry: TranscriptEntry) -> [UInt8] { AdminJSON.line(entry) }

    private static func query(_ text: String?) -> [String: String] {
        var result: [String: String] = [:]
        for pair in (text ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { part in
                String(decoding: PercentCoding.decode(part.utf8, plusAsSpace: true) ?? Array(part.utf8), as: UTF8.self)
            }
            result[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return result
    }

    private static func object(_ body: [UInt8]) -> Result<[String: Any], HTTPReplyBox> {
        guard let value = try? JSONSerialization.jsonObject(with: Data(body)), let object = value as? [String: Any] else {
            return .failure(HTTPReplyBox(error(400, "the body is not a JSON object: \(String(decoding: body.prefix(200), as: UTF8.self))")))
        }
        return .success(object)
    }

    static func json(_ value: Any) -> HTTPReply {
        HTTPReply(HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: AdminJSON.encode(value)))
    }

    static func error(_ status: Int, _ message: String) -> HTTPReply {
        HTTPReply(HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: AdminJSON.encode(["error": message])))
    }
}

/// A reply carried as an error.
struct HTTPReplyBox: Error {
    let reply: HTTPReply
    init(_ reply: HTTPReply) { self.reply = reply }
}
