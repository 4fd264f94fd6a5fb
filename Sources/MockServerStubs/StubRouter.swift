import Foundation
@_spi(HotPath) import MockServerCore
import MockServerHTTP
import MockServerHTTPScript
import MockServerMockData
import MockServerScript

/// The stubs and endpoints of one server, as an ``HTTPMockResponder``: the most recently added stub
/// that matches a request answers it; a `HEAD` that no stub matches gets the answer of the `GET`
/// stub that would match it, without its body (RFC 9110 §9.3.2); then the mock-data folders, in
/// the order added. A request
/// nothing answers gets a 500 (a 404 when there are mock-data folders) that shows it, the files
/// tried, the Swift that would stub it, and the nearest stub with what differed.
package final class StubRouter: HTTPStreamingResponder, GRPCMessageDescribing {
    /// The stubs and their index, read on every request.
    private let stubs = Locked<(all: [Stub], index: StubIndex)>(([], StubIndex()))
    private let sequence = Locked(0)
    private let unexpected = Locked<[UnexpectedRequestReport]>([])
    private let failures = Locked<[String]>([])
    private let folders = Locked<[MockDataResponder]>([])
    /// Which stub the unexpected-request reports offer to paste.
    package let reportSnippet = Locked(UnexpectedRequestReport.Snippet.swift)
    /// How many requests the stubs answered, numbering each answer for the declared orders.
    private let answers = Locked(0)
    /// The stubs' declared orders (``declareOrder(_:)``), each oldest first.
    private let orders = Locked<[[Stub]]>([])
    /// The values every closure shares.
    package let cache = SharedValues()
    /// The loaded `.proto` schemas (``loadSchema(_:)``): what gRPC endpoints' JSON is read by, and
    /// what reflection and health serve.
    private let grpcSchema = Locked<GRPCSchema?>(nil)

    /// The schemas loaded so far, if any.
    package var schema: GRPCSchema? { grpcSchema.withLock { $0 } }

    /// Loads `schema` (replacing one loaded before): endpoints read after it take JSON messages,
    /// and reflection and health answer.
    package func loadSchema(_ schema: GRPCSchema) {
        grpcSchema.withLock { $0 = schema }
    }

    /// A request message as JSON, by the loaded schema's method for `path`.
    package func describeGRPCRequestMessage(_ message: [UInt8], path: String) -> String? {
        guard let coder = grpcSchema.withLock({ $0 })?.coder(path: path), let json = try? coder.request(message) else { return nil }
        return JSONText.write(json, layout: .compact)
    }

    /// The schema, when `request` is a call of reflection or health that no stub takes over.
    private func grpcServicesSchema(for request: HTTPMockRequest) -> GRPCSchema? {
        guard request.path.hasPrefix("/grpc."), request.method == "POST",
              GRPCReflectionCall.paths.contains(request.path) || request.path == GRPCHealthService.checkPath || request.path == GRPCHealthService.watchPath,
              let schema = grpcSchema.withLock({ $0 }),
              stubs.withLock({ $0.index.candidates(method: request.method, path: request.path) }).isEmpty else { return nil }
        return schema
    }

    /// The stubs that answer gRPC calls message by message: the paths of those with one path, and
    /// how many others (templates, patterns) there are. A request for none of them is not looked
    /// up twice.
    private let streamingStubs = Locked<(paths: Set<String>, others: Int)>(([], 0))

    package init() {}

    /// Registers a stub for `method` and `target`; with `sequence`, at that place in the order
    /// (an endpoints file's entries come after every stub added in code, first entry first).
    package func add(method: String, target: StubTarget, answer: Stub.Answer = .responses([Stub.Response()]), sequence given: Int? = nil) -> Stub {
        let number = given ?? sequence.withLock { value in
            value += 1
            return value
        }
        let stub = Stub(sequence: number, method: method, target: target, answer: answer)
        if case .grpcCall(streams: true, make: _) = answer {
            streamingStubs.withLock { streaming in
                if let path = target.grpcPath { streaming.paths.insert(path) } else { streaming.others += 1 }
            }
        }
        stubs.withLock { stubs in
            stubs.all.append(stub)
            stubs.index.insert(stub)
        }
        return stub
    }

    /// What the endpoint closures threw, in order: each was answered with a 500 naming it.
    package var handlerFailures: [String] { failures.withLock { $0 } }

    /// Registers an endpoints file's entries.
    package func addEndpoints(_ script: EndpointScript) {
        EndpointStubs.register(script, with: self)
    }

    /// Adds a mock-data folder, searched after every stub and every folder added before it.
    package func addMockData(_ responder: MockDataResponder) {
        folders.withLock { $0.append(responder) }
    }

    /// Every stub, oldest first.
    package var all: [Stub] { stubs.withLock { $0.all } }

    /// Declares that `stubs` answer their requests in that order: every request of one before any
    /// of the next.
    package func declareOrder(_ stubs: [Stub]) {
        guard stubs.count > 1 else { return }
        orders.withLock { $0.append(stubs) }
    }

    /// The declared orders.
    package var declaredOrders: [[Stub]] { orders.withLock { $0 } }

    /// Removes every stub and the declared orders (hits and the cache stay).
    package func removeAll() {
        stubs.withLock { $0 = ([], StubIndex()) }
        streamingStubs.withLock { $0 = ([], 0) }
        orders.withLock { $0 = [] }
    }

    /// The requests no stub matched, in order, each with the report its 500 showed.
    package var unexpectedRequests: [UnexpectedRequestReport] { unexpected.withLock { $0 } }

    package func answerImmediately(_ request: HTTPMockRequest, context: HTTPRequestContext) throws -> HTTPReply.Immediate {
        if let schema = grpcServicesSchema(for: request) {
            if let steps = GRPCHealthService.steps(path: request.path, body: Array(request.body), schema: schema) {
                return .reply(HTTPReply(steps: steps, name: "gRPC health"))
            }
            let reflection = GRPCReflectionCall(schema: schema, maximumMessageLength: EndpointStubs.maximumGRPCMessageLength)
            return .reply(HTTPReply(steps: reflection.steps(forBody: Array(request.body)), name: reflection.name))
        }
        guard let found = find(request) else { return .reply(grpcWebPreflightReply(to: request) ?? mockDataReply(to: request)) }
        let (stub, parameters) = (found.stub, found.parameters)
        let number = answers.withLock { count in
            count += 1
            return count
        }
        // A GET's answer to a HEAD: its status and headers, and nothing that would follow them.
        let asHead = found.isHeadAsGet
        let taken = stub.takeAnswer(for: request, sequence: number)
        switch taken.answer {
        case .responses(let responses):
            // The next of a sequence; the last one repeats.
            let response = responses[min(taken.hit, responses.count - 1)]
            return .reply(HTTPReply(steps: Self.steps(response.replySteps(for: request), asHead: asHead), name: stub.description))
        case .computed(let compute):
            return .reply(HTTPReply(steps: Self.steps(compute(Stub.Request(request, pathParameters: parameters), cache, taken.hit).replySteps(for: request), asHead: asHead), name: stub.description))
        case .handler(let handler):
            return .asynchronous { [self] in
                var reply = try await run(handler, of: stub, for: request, parameters: parameters)
                reply.steps = Self.steps(reply.steps, asHead: asHead)
                return reply
            }
        case .webSocket(let webSocket):
            return .reply(HTTPReply(steps: [.output(.upgrade(webSocket.upgrade(name: stub.description)))], name: stub.description))
        case .grpcCall(streams: _, let make):
            // The whole body at once (HTTP/1.1, or an HTTP/2 call that was not streamed).
            let call = make(Stub.Request(request, pathParameters: parameters), cache, stub.description)
            // gRPC-Web's text form decoded: the call reads messages; its answer is framed as asked.
            let web = GRPCWebFormat(of: request) != nil
            let body = web ? (try? GRPCWebFormat.messageBytes(of: request)) ?? Array(request.body) : Array(request.body)
            return .reply(HTTPReply(steps: call.steps(forBody: body, overHTTP2: context.isHTTP2 && !web), name: stub.description))
        }
    }

    /// Whether a call to `path` may be answered as it streams: reflection's paths when a schema is
    /// loaded, and the paths of stubs that answer each message (any path while one of them has a
    /// template or a pattern for its target).
    package func mayAnswerAsItStreams(path: String) -> Bool {
        if GRPCReflectionCall.paths.contains(path) { return grpcSchema.withLock { $0 } != nil }
        return streamingStubs.withLock { $0.paths.contains(path) || $0.others > 0 }
    }

    /// A gRPC call's answer given as its request's messages arrive, when the stub that answers its
    /// head answers each message (`each`); `nil` otherwise, and at once when no stub does so.
    package func streamingAnswer(to head: HTTPMockRequest, context: HTTPRequestContext) -> (any HTTPStreamingAnswer)? {
        if let schema = grpcServicesSchema(for: head), GRPCReflectionCall.paths.contains(head.path) {
            return GRPCReflectionCall(schema: schema, maximumMessageLength: EndpointStubs.maximumGRPCMessageLength)
        }
        // gRPC-Web's clients send whole bodies: answered whole, in their own framing.
        guard mayAnswerAsItStreams(path: head.path), head.headers["Content-Type"]?.hasPrefixIgnoringASCIICase(lowercased: "application/grpc") == true, GRPCWebFormat(of: head) == nil,
              let found = find(head), found.stub.streamsGRPC else { return nil }
        let number = answers.withLock { count in
            count += 1
            return count
        }
        guard case .grpcCall(streams: _, let make) = found.stub.takeAnswer(for: head, sequence: number).answer else { return nil }
        return make(Stub.Request(head, pathParameters: found.parameters), cache, found.stub.description)
    }

    /// A reply's steps, or with `asHead` its steps as the answer to a `HEAD`: up to its response,
    /// whose body the serializer leaves out for a `HEAD`; a streamed body's chunks, sent as bytes
    /// after the head, are dropped.
    private static func steps(_ steps: [ReplyStep<HTTPReplyOutput>], asHead: Bool) -> [ReplyStep<HTTPReplyOutput>] {
        guard asHead, let response = steps.firstIndex(where: { if case .output(.response) = $0 { true } else { false } }) else { return steps }
        return Array(steps[...response])
    }

    package func respond(to request: HTTPMockRequest, context: HTTPRequestContext) async throws -> HTTPReply? {
        switch try answerImmediately(request, context: context) {
        case .reply(let reply): reply
        case .unmatched, .deferred: nil
        case .asynchronous(let answer): try await answer()
        }
    }

    /// The reply of `stub`'s closure to `request`; what it throws is kept for ``handlerFailures``.
    private func run(_ handler: @Sendable (Stub.Request, SharedValues) async throws -> Stub.Response, of stub: Stub,
                     for request: HTTPMockRequest, parameters: Stub.Parameters) async throws -> HTTPReply {
        let response: Stub.Response
        do {
            response = try await handler(Stub.Request(request, pathParameters: parameters), cache)
        } catch {
            failures.withLock { $0.append("\(stub.description) threw for \(request.method) \(request.target): \(error)") }
            throw error
        }
        return HTTPReply(steps: response.replySteps(for: request), name: stub.description)
    }

    /// The stub that answers a request, its path parameters, and whether it is a `GET` stub
    /// answering a `HEAD`.
    private struct Found {
        let stub: Stub
        let parameters: Stub.Parameters
        let isHeadAsGet: Bool
    }

    /// What a request no stub matches is masked with before it is matched again: a recorded
    /// endpoint holds `token=MASKED` where the request has the token (`mockserver record`).
    private let requestMask = HTTPRequestMask.standard

    /// The stub that answers `request` (``findUnmasked(_:)``); then the same for the request
    /// masked by ``requestMask``.
    private func find(_ request: HTTPMockRequest) -> Found? {
        if let found = findUnmasked(request) { return found }
        return requestMask.masked(request).flatMap(findUnmasked)
    }

    /// The most recently added stub that matches; for a `HEAD` that none matches, the most
    /// recently added `GET` stub that would match it as a `GET` (not a WebSocket's).
    private func findUnmasked(_ request: HTTPMockRequest) -> Found? {
        for stub in stubs.withLock({ $0.index.candidates(method: request.method, path: request.path) }) {
            if case .success(let parameters) = stub.match(request) { return Found(stub: stub, parameters: parameters, isHeadAsGet: false) }
        }
        guard request.method == "HEAD" else { return nil }
        for stub in stubs.withLock({ $0.index.candidates(method: "GET", path: request.path) }) where !stub.isWebSocket {
            if case .success(let parameters) = stub.match(request, as: "GET") { return Found(stub: stub, parameters: parameters, isHeadAsGet: true) }
        }
        return nil
    }

    /// The answer to a CORS preflight that no stub matched for a path a gRPC stub answers with the
    /// method it asks for (``GRPCWebCORS/preflightResponse(to:)``), so that a page on another origin
    /// can call it with gRPC-Web; `nil` for any other request.
    private func grpcWebPreflightReply(to request: HTTPMockRequest) -> HTTPReply? {
        guard let method = GRPCWebCORS.requestedMethod(of: request) else { return nil }
        let candidates = stubs.withLock { $0.index.candidates(method: method, path: request.path) }
        guard candidates.contains(where: { $0.answersGRPC && $0.target.match(request) != nil }) else { return nil }
        return HTTPReply(GRPCWebCORS.preflightResponse(to: request), name: "gRPC-Web CORS preflight")
    }

    /// The reply of the first mock-data folder with a file for `request`, or the unexpected
    /// request's.
    private func mockDataReply(to request: HTTPMockRequest) -> HTTPReply {
        var misses: [MockDataMiss] = []
        for folder in folders.withLock({ $0 }) {
            switch folder.lookup(request) {
            case .found(let name, let response): return HTTPReply(response, name: name)
            case .invalid(let name, let error): return HTTPReply(MockDataResponder.invalidFileResponse(error), name: name)
            case .missing(let miss): misses.append(miss)
            }
        }
        let report = UnexpectedRequestReport(request: request, stubs: all, misses: misses, snippet: reportSnippet.withLock { $0 })
        unexpected.withLock { $0.append(report) }
        if request.headers["Content-Type"]?.lowercased().hasPrefix("application/grpc") == true, GRPCWebFormat(of: request) == nil {
            // A gRPC client reads a status, not a page: UNIMPLEMENTED, naming the nearest endpoint.
            var message = "no endpoint answers \(request.path)"
            if let (stub, mismatch) = UnexpectedRequestReport.nearest(to: request, among: all) {
                message += "; the nearest, \(stub.description), differs in its \(mismatch.part.rawValue): \(mismatch.detail)"
            }
            return HTTPReply(GRPCAnswer.trailersOnly(status: GRPCAnswer.unimplemented, message: message), name: "unexpected request", isUnexpected: true)
        }
        let response = misses.isEmpty
            ? HTTPMockResponse(status: 500, headers: ["Content-Type": "text/plain; charset=utf-8", "X-MockServer": "Unexpected Request"],
                           body: Array(report.text.utf8))
            : MockDataResponder.missResponse(text: report.text)
        return HTTPReply(response, name: "unexpected request", isUnexpected: true)
    }
}
