import Foundation
@_spi(HotPath) import MockServerCore
import MockServerHTTP
import MockServerHTTPScript
import MockServerMockData
import MockServerScript
import MockServerStubs
import MockServerWebSocketScript

/// A reverse proxy that records: each request the destination cannot answer yet goes to the
/// upstream, the client gets the upstream's answer, and the exchange is written, masked, as
/// mock-data files or endpoints.
///
/// ```swift
/// let recorder = try HTTPRecorder(upstream: URL(string: "http://127.0.0.1:8080")!,
///                                 destination: .mockData(folder: URL(fileURLWithPath: "Fixtures/VOKMockData")))
/// let server = MockServer(httpResponder: recorder)
/// try server.start()
/// // … run the client against server.url(for: "/") …
/// server.stop()
/// try recorder.flush()
/// ```
///
/// - Capture on miss: a request the destination already answers (a file in the folder, an endpoint
///   of the file as it was when recording began) is answered from there and not forwarded. In a
///   folder, a request recorded once is answered by its new file from then on; in an endpoints
///   file, every request the file did not have goes upstream, and different answers to the same
///   request become a sequence.
/// - An upstream that refuses, times out or answers with something that is not HTTP gives the
///   client a `502 Bad Gateway` whose body names the cause; nothing is written for it.
/// - The transcript shows both sides: the client's connection, and the upstream connections with
///   what was sent on them; each write is a `recorded` note.
public final class HTTPRecorder: HTTPMockResponder, HTTPLoopResponder {
    /// Where requests go.
    package let upstream: HTTPUpstream
    /// Where exchanges are written.
    public let destination: HTTPRecorder.Destination
    /// What is hidden before writing.
    public let mask: HTTPRecorder.Mask
    /// How long the upstream may take to answer one request.
    public let timeout: Duration
    /// The longest upstream answer body recorded, in bytes: an answer is held whole until it is
    /// written, so a longer one is neither forwarded nor recorded; the client gets a `502 Bad Gateway`
    /// naming the limit, and the upstream connection closes as soon as the body passes it.
    public let maximumBodySize: Int
    /// ``maximumBodySize``'s default: 64 MiB, as a request body's (`MockServer.Configuration.maximumRequestBodySize`).
    public static let defaultMaximumBodySize = 64 << 20
    private let sink: any RecordingSink
    /// What the destination already answers.
    private let replay: Replay
    /// Counted on every exchange.
    private let counts = Locked((recorded: 0, replayed: 0, failed: 0))
    /// How the transcript names what an endpoints file records: "an endpoint of FILE".
    private let endpointWord: String
    /// The name of every reply the upstream gave, "upstream HOST:PORT" (made once).
    private let upstreamReplyName: String
    /// ``mask``'s query, form and JSON names (``HTTPRecorder/Mask/requestMask``), made once.
    private let requestMask: HTTPRequestMask
    /// What each field of an answer is to the recorder, under ``mask``: decided once per common name.
    private let fieldRoles: RecordingFieldRoles

    private enum Replay: Sendable {
        case mockData(MockDataResponder)
        case endpoints(StubRouter?)
    }

    /// A recorder forwarding to `upstream` and writing to `destination`.
    ///
    /// - Parameters:
    ///   - upstream: an `http(s)://HOST[:PORT][/PATH]` URL, or `h2c://…` for an upstream that speaks only HTTP/2 (prior knowledge); the host is resolved now.
    ///     An `https` upstream gets an HTTP/2 client's requests as HTTP/2 when it chooses `h2` through ALPN.
    ///   - destination: a mock-data folder or an endpoints file.
    ///   - mask: the headers and JSON fields whose values are never written (``HTTPRecorder.Mask/standard`` by default).
    ///   - keepsTiming: whether endpoints get the upstream's time to answer as their `delay`.
    ///   - timeout: how long the upstream may take to answer one request.
    ///   - upstreamCA: for an `https` upstream, a PEM file of the CAs to trust instead of the system's store.
    ///   - maximumBodySize: the longest upstream answer body recorded (64 MiB by default); a longer
    ///     one gives the client a `502` naming the limit.
    /// - Throws: ``RecordingError`` for a bad upstream URL, or a destination that cannot be read or written.
    public convenience init(upstream: URL, destination: HTTPRecorder.Destination, mask: HTTPRecorder.Mask = .standard, keepsTiming: Bool = false,
                timeout: Duration = .seconds(30), upstreamCA: String? = nil, maximumBodySize: Int = HTTPRecorder.defaultMaximumBodySize) throws(RecordingError) {
        try self.init(upstream: upstream, destination: destination, mask: mask, keepsTiming: keepsTiming, timeout: timeout, upstreamCA: upstreamCA,
                      maximumBodySize: maximumBodySize, grpcSchema: nil)
    }

    /// A recorder as ``init(upstream:destination:mask:keepsTiming:timeout:upstreamCA:maximumBodySize:)``
    /// makes one, that writes the gRPC calls of the methods `grpcSchema` has (`mockserver record
    /// --proto`) to an endpoints file with their messages as JSON, their requests matched by their
    /// first message and their error details decoded; the file's endpoints are read by it too.
    package init(upstream: URL, destination: HTTPRecorder.Destination, mask: HTTPRecorder.Mask, keepsTiming: Bool,
                 timeout: Duration, upstreamCA: String?, maximumBodySize: Int, grpcSchema: GRPCSchema?) throws(RecordingError) {
        self.maximumBodySize = max(0, maximumBodySize)
        self.upstream = try HTTPUpstream(url: upstream, caFile: upstreamCA)
        upstreamReplyName = "upstream \(self.upstream.authority)"
        self.destination = destination
        self.mask = mask
        requestMask = mask.requestMask
        fieldRoles = RecordingFieldRoles(mask: mask)
        self.timeout = timeout
        if case .endpoints(let file) = destination {
            endpointWord = "an endpoint of \(file.lastPathComponent)"
        } else {
            endpointWord = ""
        }
        switch destination {
        case .mockData(let folder):
            sink = try MockDataWriter(folder: folder)
            // Names masked beyond the standard ones are left in the folder for the replay.
            let extra = mask.requestMask.removing(.standard)
            do {
                try MockDataMaskFile.write(extra, in: folder)
            } catch {
                throw .cannotWrite(path: folder.appendingPathComponent(MockDataMaskFile.name).path, reason: (error as NSError).localizedDescription)
            }
            do {
                replay = .mockData(try MockDataResponder(folder: folder, requestMask: mask.requestMask))
            } catch {
                throw .unreadable(path: folder.path, reason: "\(error)")
            }
        case .endpoints(let file):
            var router: StubRouter?
            if let bytes = FileManager.default.contents(atPath: file.path) {
                do {
                    // An endpoint that upgrades is answered from the file like the others.
                    let script = try EndpointScript(json: Array(bytes), file: file.path, vocabulary: ScriptVocabulary([WebSocketScriptProtocol()]),
                                                    schema: grpcSchema)
                    router = StubRouter()
                    if let grpcSchema { router?.loadSchema(grpcSchema) }
                    router?.addEndpoints(script)
                } catch {
                    throw .unreadable(path: file.path, reason: "\(error)")
                }
            }
            sink = try EndpointsWriter(file: file, keepsTiming: keepsTiming, grpcSchema: grpcSchema, mask: mask.requestMask)
            replay = .endpoints(router)
        }
    }

    /// How many exchanges were written, answered from the destination, and answered with a 502.
    public var statistics: (recorded: Int, replayed: Int, failed: Int) { counts.withLock { $0 } }

    /// The files written so far.
    public var writtenFiles: [String] { sink.writtenFiles }

    /// Writes what is kept in memory (an endpoints file is otherwise written within a fraction of a
    /// second of each change). Call it after the server stops.
    ///
    /// - Throws: ``RecordingError/cannotWrite(path:reason:)``.
    public func flush() throws(RecordingError) { try sink.flush() }

    public func answerImmediately(_ request: HTTPMockRequest, context: HTTPRequestContext) throws -> HTTPReply.Immediate {
        if request.method == "CONNECT" { return .reply(Self.connectRefused) }
        if let reply = try replayed(request, context: context) {
            counts.withLock { $0.replayed += 1 }
            return .reply(reply)
        }
        return .deferred
    }

    /// The destination's answer to `request`, or `nil` when it has none.
    private func replayed(_ request: HTTPMockRequest, context: HTTPRequestContext) throws -> HTTPReply? {
        switch replay {
        case .mockData(let folder):
            if case .found(let name, let response) = folder.lookup(request) { return HTTPReply(response, name: name) }
            return nil
        case .endpoints(let router?):
            if case .reply(let reply) = try router.answerImmediately(request, context: context), !reply.isUnexpected { return reply }
            return nil
        case .endpoints(nil):
            return nil
        }
    }

    /// The answer to `CONNECT`: a reverse proxy opens no tunnels (RFC 9110 §9.3.6), and the
    /// upstream never hears of it.
    static let connectRefused = HTTPReply(HTTPMockResponse(status: 405, headers: ["Content-Type": "text/plain; charset=utf-8", "Allow": allowedMethods,
                                                                              "X-MockServer": "CONNECT Refused"],
                                                       body: Array("MockServer: the recorder is a reverse proxy and does not forward CONNECT (it opens no tunnels); send the requests themselves to it\n".utf8)),
                                          name: "CONNECT refused", isUnexpected: true)

    /// What the `Allow` header of a refused `CONNECT` lists: the methods the recorder forwards.
    static let allowedMethods = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS, TRACE"

    public func respond(to request: HTTPMockRequest, context: HTTPRequestContext) async throws -> HTTPReply? {
        if request.method == "CONNECT" { return Self.connectRefused }
        if let reply = try replayed(request, context: context) {
            counts.withLock { $0.replayed += 1 }
            return reply
        }
        return reply(to: request, await exchange(request, context: context), context: context)
    }

    /// The client's answer to `request` from the upstream's `result`, the exchange written and
    /// counted (an answer from the upstream), or a `502` naming the failure.
    func reply(to request: HTTPMockRequest, _ result: Result<UpstreamResponse, UpstreamError>, context: HTTPRequestContext) -> HTTPReply {
        switch result {
        case .failure(let error):
            counts.withLock { $0.failed += 1 }
            context.record(.note(Transcript.Note(kind: "upstream-failed", text: "\(error)")))
            return HTTPReply(HTTPMockResponse(status: 502, headers: ["Content-Type": "text/plain; charset=utf-8", "X-MockServer": "Upstream Failed"],
                                          body: Array("MockServer: \(error)\n".utf8)), name: "upstream failed", isUnexpected: true)
        case .success(let response):
            let (headers, roles) = clientHeaders(response, for: request)
            let recorded = recording(request, response, headers: headers, roles: roles)
            do {
                try sink.record(recorded)
                counts.withLock { $0.recorded += 1 }
                let text = String(joining: "recorded ", request.method, " ", recorded.request.target, " as ", written(recorded))
                context.record(.note(Transcript.Note(kind: "recorded", text: text, bytes: recorded.body.count)))
            } catch {
                context.record(.note(Transcript.Note(kind: "not-recorded", text: "\(error)")))
                context.environment.logger.log(.warning, "\(error)", connection: context.connectionID)
            }
            // The reason as a status line's text would give it (without leading spaces), with no line made and parsed.
            let reason = response.reason.utf8.first == 0x20 ? String(response.reason.drop { $0 == " " }) : response.reason
            var answer = HTTPMockResponse(status: response.status, reason: reason, headers: headers, body: response.body)
            // The upstream's trailers reach the client as they came.
            answer.trailers = response.trailers
            return HTTPReply(answer, name: upstreamReplyName)
        }
    }

    /// Answers on the server's loop with no task (``HTTPLoopResponder``): the same exchange and the
    /// same answer as ``respond(to:context:)``, whose replay check ``answerImmediately(_:context:)``
    /// has made already.
    package func answer(_ request: HTTPMockRequest, context: HTTPRequestContext, on loop: EventLoop,
                        done: @escaping (HTTPReply?) -> Void) -> () -> Void {
        let answer = RecorderLoopAnswer(recorder: self, request: request, context: context, loop: loop, done: done)
        UpstreamPool.of(loop).send(upstreamExchange(of: request, clientIsHTTP2: context.isHTTP2, taker: .object(answer)))
        return answer.clientLeft
    }

    /// What `recorded` was written as, for the transcript's note.
    private func written(_ recorded: RecordedExchange) -> String {
        switch destination {
        case .mockData: MockDataWriter.fileName(for: recorded).map { "mock-data file \($0)" } ?? "a mock-data file"
        case .endpoints: endpointWord
        }
    }

    /// Sends `request` upstream on the server's loop and awaits the answer.
    private func exchange(_ request: HTTPMockRequest, context: HTTPRequestContext) async -> Result<UpstreamResponse, UpstreamError> {
        guard let inbox = context.inbox else { return .failure(.unavailable("the request did not come through a running server")) }
        let clientIsHTTP2 = context.isHTTP2
        let once = Locked<CheckedContinuation<Result<UpstreamResponse, UpstreamError>, Never>?>(nil)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                once.withLock { $0 = continuation }
                inbox.execute { [self] loop in
                    guard loop.isRunning else {
                        once.withLock { $0.take() }?.resume(returning: .failure(.unavailable("the server stopped")))
                        return
                    }
                    let taker = UpstreamExchange.Taker.closure { result in once.withLock { $0.take() }?.resume(returning: result) }
                    UpstreamPool.of(loop).send(upstreamExchange(of: request, clientIsHTTP2: clientIsHTTP2, taker: taker))
                }
            }
        } onCancel: {
            once.withLock { $0.take() }?.resume(returning: .failure(.unavailable("the client went away")))
        }
    }

    /// The upstream exchange of `request` (from a client that spoke HTTP/2 or not), its outcome
    /// going to `taker`; made on the loop's thread.
    private func upstreamExchange(of request: HTTPMockRequest, clientIsHTTP2: Bool, taker: UpstreamExchange.Taker) -> UpstreamExchange {
        // An HTTP/2 client's request also goes to an https upstream as HTTP/2 when the upstream
        // chooses h2 through ALPN (so gRPC reaches it); an HTTP/1.1 client's stays HTTP/1.1.
        let http2 = upstream.isHTTP2 || (upstream.isTLS && clientIsHTTP2) ? upstream.forwardedExchange(of: request) : nil
        let bytes = upstream.isHTTP2 ? [] : upstream.forwardedBytes(of: request)
        let tls = upstream.tls.map { (context: $0, serverName: upstream.serverName) }
        return UpstreamExchange(bytes: bytes, method: request.method, address: upstream.address, timeout: timeout, maximumBodyLength: maximumBodySize,
                                tls: tls, http2: http2, taker: taker)
    }

    /// The upstream's headers as the client gets them: end-to-end only, `Content-Length` left to
    /// the server (kept for `HEAD`), a `Location` on the upstream made relative; and the roles
    /// the kept fields have between them, so that the recording asks no name set of a field
    /// when none is masked or dropped.
    private func clientHeaders(_ response: UpstreamResponse, for request: HTTPMockRequest) -> (headers: HTTPHeaderFields, roles: RecordingFieldRoles.Role) {
        let keepsLength = request.method == "HEAD" || response.status == 304
        let headers = response.headers
        let dropping: RecordingFieldRoles.Role = keepsLength ? .hopByHop : [.hopByHop, .contentLength]
        var roles: RecordingFieldRoles.Role = []
        var firstDropped: Int?
        var namesMore = false
        for index in headers.fields.indices {
            let field = fieldRoles.roles(of: index, in: headers, ids: response.fieldIDs)
            if field.contains(.connection), !Self.namesOnlyHopByHop(headers.fields[index].value) {
                namesMore = true
                break
            }
            if field.isDisjoint(with: dropping) { roles.formUnion(field) } else if firstDropped == nil { firstDropped = index }
        }
        var kept = headers
        if namesMore {
            // A `Connection` field names more fields to drop (rare): the name sets decide, field by field.
            kept = HTTPHopByHop.endToEnd(headers, dropping: keepsLength ? HTTPHopByHop.hopByHop : HTTPHopByHop.answer)
            roles = kept.fields.reduce(into: []) { $0.formUnion(fieldRoles.roles(of: $1.name)) }
        } else if let first = firstDropped {
            // One allocation, at the size the kept fields can reach.
            var fields: [HTTPHeaderFields.Field] = []
            fields.reserveCapacity(headers.count - 1)
            fields += headers.fields[..<first]
            for index in (first + 1)..<headers.count where fieldRoles.roles(of: index, in: headers, ids: response.fieldIDs).isDisjoint(with: dropping) {
                fields.append(headers.fields[index])
            }
            kept = HTTPHeaderFields(fields)
        }
        // Most answers have no location to rewrite: their fields are not copied again.
        guard roles.contains(.location) else { return (kept, roles) }
        var result = HTTPHeaderFields()
        for field in kept {
            result.add(name: field.name, value: RecordingFieldRoles.locations.contains(field.name) ? relative(field.value) : field.value)
        }
        return (result, roles)
    }

    /// Whether the `Connection` value `list` names hop-by-hop fields only: the value servers send
    /// most compared whole first (a small string's compare), any other list by the names. `close`
    /// is not such a name: a field called `Close` that it names goes too (RFC 9110 §7.6.1).
    private static func namesOnlyHopByHop(_ list: String) -> Bool {
        list == "keep-alive" || HTTPHopByHop.hopByHop.containsEvery(inList: list)
    }

    /// `location` without the upstream's origin (and base path), so that it points back at
    /// whichever server answers: the recorder now, the replay later.
    private func relative(_ location: String) -> String {
        for origin in [upstream.origin, "http://\(upstream.host):\(upstream.port)"] where location.lowercased().hasPrefix(origin.lowercased()) {
            var rest = String(location.dropFirst(origin.count))
            if !upstream.basePath.isEmpty, rest.hasPrefix(upstream.basePath) { rest = String(rest.dropFirst(upstream.basePath.count)) }
            if rest.isEmpty || rest.first == "/" { return rest.isEmpty ? "/" : rest }
        }
        return location
    }

    /// The exchange as written: masked, with the headers the client got (whose fields have
    /// `roles` between them).
    private func recording(_ request: HTTPMockRequest, _ response: UpstreamResponse, headers: HTTPHeaderFields,
                           roles: RecordingFieldRoles.Role) -> RecordedExchange {
        // The request as written and named: masked query parameters and body fields (the
        // replay masks an incoming request the same way before it looks it up).
        let maskedRequest = requestMask.masked(request) ?? request
        let responseBody = mask.maskedBody(response.body, contentType: response.headers["Content-Type"], prepared: requestMask) ?? response.body
        // A masked body is no longer what any length or digest header described; no file keeps
        // a length. The headers are copied only when a field is masked or goes.
        let dropped: RecordingFieldRoles.Role = responseBody.count != response.body.count || responseBody != response.body ? .bodyDescription : .contentLength
        var written = roles.contains(.masked) ? mask.masked(headers) : headers
        if roles.contains(dropped) {
            written = HTTPHeaderFields(written.fields.filter { fieldRoles.roles(of: $0.name).isDisjoint(with: dropped) })
        }
        return RecordedExchange(request: maskedRequest, requestBody: maskedRequest.body,
                                status: response.status, reason: response.reason, headers: written, body: responseBody,
                                elapsed: response.elapsed, trailers: mask.masked(response.trailers))
    }
}

private extension Optional {
    /// The value, leaving `nil` behind.
    mutating func take() -> Wrapped? {
        defer { self = nil }
        return self
    }
}
