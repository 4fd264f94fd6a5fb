import Foundation
import MockServerCore
import MockServerHTTP
import MockServerHTTPScript
import MockServerScript

/// An endpoints file's entries as stubs: the first entry that matches answers, after any stub added
/// in code.
enum EndpointStubs {
    /// Registers every endpoint of `script` with `router`.
    static func register(_ script: EndpointScript, with router: StubRouter) {
        for (index, endpoint) in script.endpoints.enumerated() {
            let stub = router.add(method: endpoint.method, target: StubTarget(endpoint.path), answer: answer(of: endpoint), sequence: -1 - index)
            stub.update { definition in
                definition.headers = endpoint.requestHeaders
                definition.body = endpoint.requestBody.map { .bytes(Array($0.utf8)) } ?? endpoint.grpcRequest.map { .grpc($0) }
                definition.computesGRPC = endpoint.responses.contains { if case .grpc = $0.body { true } else { false } }
            }
        }
    }

    /// What answers `endpoint`'s requests: its upgrade's script, or its responses in turn.
    private static func answer(of endpoint: EndpointScript.Endpoint) -> Stub.Answer {
        if let upgrade = endpoint.upgrade { return .webSocket(WebSocketStub(responder: upgrade)) }
        if endpoint.responses.count == 1, case .grpc(let grpc) = endpoint.responses[0].body, grpc.constant == nil, endpoint.responses[0].fault == nil {
            return grpcCall(grpc, of: endpoint.responses[0], cacheWrites: endpoint.cache)
        }
        let responses = endpoint.responses
        let cacheWrites = endpoint.cache
        // Bodies with no values are written once: every answer shares their bytes; so are gRPC answers.
        let constantBodies = responses.map(constantBody(of:))
        let constantGRPC = responses.map { response -> GRPCAnswer? in if case .grpc(let answer) = response.body { answer.constant } else { nil } }
        // A response with nothing to fill in (headers, body and trailers without `${…}`) on an
        // endpoint that writes no cache is made once, and every call shares it: copying the
        // endpoint's response and building it again was 6,300 instructions of a gRPC call's 96,000
        // (callgrind, Benchmarks/grpc-unary.sh).
        let made = responses.indices.map { index in
            cacheWrites.isEmpty ? constantResponse(responses[index], constantBody: constantBodies[index], constantGRPC: constantGRPC[index]) : nil
        }
        return .computed { request, cache, hit in
            let index = min(hit, responses.count - 1)
            if let response = made[index] { return response }
            let values = { (source: EndpointTemplate.Source, name: String) in value(source, name, request: request, cache: cache) }
            let built = make(responses[index], constantBody: constantBodies[index], constantGRPC: constantGRPC[index], values)
            for write in cacheWrites { cache[write.name] = write.value.render(values) }
            return built
        }
    }

    /// `response` made once, when nothing in it depends on the request: its headers and trailers
    /// have no `${…}`, and its body is none, bytes, or constant text, JSON or gRPC; `nil` otherwise
    /// (and for streamed bodies, made for each call).
    private static func constantResponse(_ response: EndpointScript.Response, constantBody: [UInt8]?, constantGRPC: GRPCAnswer?) -> Stub.Response? {
        guard response.headers.allSatisfy({ $0.value.isConstant }), response.trailers.allSatisfy({ $0.value.isConstant }) else { return nil }
        switch response.body {
        case .none, .bytes: break
        case .text, .json: guard constantBody != nil else { return nil }
        case .grpc: guard constantGRPC != nil else { return nil }
        case .events, .chunks: return nil
        }
        return make(response, constantBody: constantBody, constantGRPC: constantGRPC) { _, _ in nil }
    }

    /// The whole response to a request whose values `values` gives: ``build``'s, with the
    /// response's HTTP/2 fault, network conditions and trailers.
    private static func make(_ response: EndpointScript.Response, constantBody: [UInt8]?, constantGRPC: GRPCAnswer?,
                             _ values: (EndpointTemplate.Source, String) -> String?) -> Stub.Response {
        var built = build(response, constantBody: constantBody, constantGRPC: constantGRPC, values)
        built.http2Fault = response.fault?.0
        built.conditions = response.conditions
        for trailer in response.trailers { built.trailers.add(name: trailer.name, value: trailer.value.render(values)) }
        return built
    }

    /// The longest gRPC request message a call takes (gRPC's own default limit, 4 MiB).
    static let maximumGRPCMessageLength = 4 << 20

    /// What answers a gRPC endpoint whose answer differs from call to call (values from the
    /// request's messages, or `each` rules): a ``GRPCCall`` made for each call from its head.
    private static func grpcCall(_ answer: GRPCEndpointAnswer, of response: EndpointScript.Response,
                                 cacheWrites: [(name: String, value: EndpointTemplate)]) -> Stub.Answer {
        // A call with rules, or whose answer breaks off with a fault after its messages, is answered
        // as it streams: its messages go one by one, so that the fault comes after them.
        .grpcCall(streams: answer.each != nil || answer.fault != nil) { request, cache, name in
            let values = { (source: EndpointTemplate.Source, name: String) in value(source, name, request: request, cache: cache) }
            var headers = HTTPHeaderFields()
            for header in response.headers { headers.add(name: header.name, value: header.value.render(values)) }
            var trailers = HTTPHeaderFields()
            for trailer in response.trailers { trailers.add(name: trailer.name, value: trailer.value.render(values)) }
            for write in cacheWrites { cache[write.name] = write.value.render(values) }
            return GRPCCall(answer: answer, request: request.http, name: name, headers: headers, trailers: trailers,
                            maximumMessageLength: maximumGRPCMessageLength, conditions: response.conditions, delay: response.delay, values: values)
        }
    }

    /// The body of `response` when it is the same for every request (text or JSON with no
    /// `${…}` value), written once; `nil` otherwise.
    private static func constantBody(of response: EndpointScript.Response) -> [UInt8]? {
        switch response.body {
        case .text(let template) where template.isConstant: Array(template.render { _, _ in nil }.utf8)
        case .json(let json) where json.isConstant: Array(json.render { _, _ in nil }.utf8)
        default: nil
        }
    }

    /// The response to a request whose values `values` gives; `constantBody`, when given, is the
    /// body, shared rather than written again.
    private static func build(_ response: EndpointScript.Response, constantBody: [UInt8]?, constantGRPC: GRPCAnswer?,
                              _ values: (EndpointTemplate.Source, String) -> String?) -> Stub.Response {
        var headers = HTTPHeaderFields()
        for header in response.headers { headers.add(name: header.name, value: header.value.render(values)) }
        var body: [UInt8] = []
        switch response.body {
        case .none: break
        case .text(let template): body = constantBody ?? Array(template.render(values).utf8)
        case .bytes(let bytes): body = bytes
        case .events(let events, let end):
            var streamed = Stub.Response.events(events, status: response.status, headers: headers, end: end)
            streamed.delay = response.delay
            return streamed
        case .chunks(let chunks, let end):
            var streamed = Stub.Response.streamed(StubStream(chunks, end: end),
                                                 status: response.status, headers: headers)
            streamed.delay = response.delay
            return streamed
        case .grpc:
            // Only an answer the same for every call comes here (``grpcCall`` takes the others; one
            // in a sequence of responses that is not is refused when the file is read), made once.
            var grpc = Stub.Response.grpc(headers: headers)
            grpc.grpc = constantGRPC
            for trailer in response.trailers { grpc.grpc?.trailers.add(name: trailer.name, value: trailer.value.render(values)) }
            grpc.delay = response.delay
            return grpc
        case .json(let json):
            body = constantBody ?? Array(json.render(values).utf8)
            if !headers.contains("Content-Type") { headers.add(name: "Content-Type", value: "application/json") }
        }
        return Stub.Response(status: response.status, headers: headers, body: body, delay: response.delay)
    }

    /// A `${source:name}` value of `request` or `cache`; `nil` when there is none.
    static func value(_ source: EndpointTemplate.Source, _ name: String, request: Stub.Request, cache: SharedValues) -> String? {
        switch source {
        case .param: return request.pathParameters[name]
        case .query: return request.queryParameters[name]
        case .form: return request.formParameters[name]
        case .header: return request.headers[name]
        case .cache: return cache[name].map { $0 as? String ?? "\($0)" }
        case .json:
            guard var current = try? JSONReader.parse(request.http.body, options: .strict) else { return nil }
            for key in name.split(separator: ".") {
                switch current.kind {
                case .object(let members):
                    // A repeated key means its last value, as JSONSerialization read it.
                    guard let member = members.last(where: { $0.key == key }) else { return nil }
                    current = member.value
                case .array(let items):
                    guard let index = Int(key), items.indices.contains(index) else { return nil }
                    current = items[index]
                default:
                    return nil
                }
            }
            switch current.kind {
            case .string(let text): return text
            case .bool(let flag): return flag ? "true" : "false"
            case .null: return nil
            // A number by its value (`2.0` is `2`), an object or an array as canonical JSON.
            case .number, .object, .array: return JSONText.write(current, layout: .canonical)
            }
        }
    }
}
