import Foundation
import MockServerCore
import MockServerHTTP

extension Stub {
    /// What a stub or an endpoint answers: a status, headers and a body, optionally late or failing.
    public struct Response: Sendable {
        /// The status code.
        public var status: Int
        /// The reason phrase; `nil` for the standard one.
        public var reason: String?
        /// The headers, in order (`Content-Length` is computed).
        public var headers: HTTPHeaderFields
        /// The body.
        public var body: [UInt8]
        /// A wait before the response is sent; the connection holds no thread meanwhile.
        public var delay: Duration?
        /// A failure after the wait instead of, or (truncate, dribble) shaping, the response.
        public var fault: StreamFault?
        /// A body sent in timed pieces (chunked) in place of ``body``.
        public var stream: StubStream?
        /// Network conditions for this response alone (a slow endpoint): its bytes go out under them,
        /// drawn with their probability for each request, and the connection's own come back after it.
        public var conditions: NetworkConditions?
        /// Fields sent after the body (``HTTPMockResponse/trailers``): on HTTP/1.1 the body goes
        /// chunked and they end it; an HTTP/1.0 client does not get them.
        public var trailers: HTTPHeaderFields = [:]
        /// A gRPC answer in place of the status and body (``grpc(_:status:message:headers:)``).
        package var grpc: GRPCAnswer?
        /// An HTTP/2 fault after the wait, in place of the response (an endpoints file's `"reset"`,
        /// `"goaway"`, `"stall"`, `"badHPACK"`, `"illegalFrame"`; ``resetStream(_:)`` and the others).
        package var http2Fault: HTTPStreamFault?

        /// Creates a response.
        public init(status: Int = 200, headers: HTTPHeaderFields = [:], body: [UInt8] = [], delay: Duration? = nil, fault: StreamFault? = nil) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delay = delay
            self.fault = fault
        }

        /// A response with a text body.
        public static func status(_ status: Int, body: String = "", headers: HTTPHeaderFields = [:]) -> Stub.Response {
            Stub.Response(status: status, headers: headers, body: Array(body.utf8))
        }

        /// 200 with an optional text body.
        public static func ok(body: String = "", headers: HTTPHeaderFields = [:]) -> Stub.Response { .status(200, body: body, headers: headers) }
        /// 201 Created.
        public static func created(body: String = "", headers: HTTPHeaderFields = [:]) -> Stub.Response { .status(201, body: body, headers: headers) }
        /// 204 No Content, with `headers`.
        public static func noContent(headers: HTTPHeaderFields = [:]) -> Stub.Response { .status(204, headers: headers) }
        /// 400 Bad Request.
        public static func badRequest(body: String = "") -> Stub.Response { .status(400, body: body) }
        /// 401 Unauthorized.
        public static func unauthorized(body: String = "") -> Stub.Response { .status(401, body: body) }
        /// 404 Not Found.
        public static func notFound(body: String = "") -> Stub.Response { .status(404, body: body) }
        /// 500 Internal Server Error.
        public static func serverError(body: String = "") -> Stub.Response { .status(500, body: body) }

        /// 200 (or `status`) with `json` as an `application/json` body: dictionaries, arrays, strings,
        /// numbers, booleans, and `nil` (as `null`), nested as deep as needed.
        public static func ok(json: Any, status: Int = 200) -> Stub.Response {
            Stub.Response(status: status, headers: ["Content-Type": "application/json"], body: Array(StubJSON.text(json).utf8))
        }

        /// 200 (or `status`) with `value` encoded as an `application/json` body.
        public static func json(_ value: some Encodable, status: Int = 200) -> Stub.Response {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let data = (try? encoder.encode(value)) ?? Data("null".utf8)
            return Stub.Response(status: status, headers: ["Content-Type": "application/json"], body: Array(data))
        }

        /// `status` with a body sent in timed pieces, chunked: each piece is flushed when its delay has
        /// passed, and the stream ends as `stream.end` says.
        public static func streamed(_ stream: StubStream, status: Int = 200, headers: HTTPHeaderFields = [:]) -> Stub.Response {
            var response = Stub.Response(status: status, headers: headers)
            response.stream = stream
            return response
        }

        /// Server-sent events: `text/event-stream` (no caching), each event flushed after its delay.
        ///
        /// ```swift
        /// server.stubRequest("GET", "/ticks").andReturn(.events([StubStream.Event(data: "1"), StubStream.Event(data: "2", delay: .seconds(1))]))
        /// ```
        public static func events(_ events: [StubStream.Event], status: Int = 200, headers: HTTPHeaderFields = [:], end: StubStream.End = .complete) -> Stub.Response {
            streamed(StubStream(events.map { StubStream.Piece($0.text, delay: $0.delay) }, end: end), status: status,
                     headers: HTTPStreamedBody.eventStreamHeaders(adding: headers))
        }

        /// A gRPC answer: `content-type: application/grpc`, each message length-prefixed and sent after
        /// its delay, then `grpc-status` and `grpc-message` (percent-encoded) as trailers. A `status`
        /// other than 0 with no messages is a trailers-only error (the status in the headers, no
        /// body). A request's `grpc-timeout` cuts the answer at its deadline with status 4
        /// (`DEADLINE_EXCEEDED`).
        ///
        /// ```swift
        /// server.stubRequest("POST", "/shop.Items/Watch").andReturn(.grpc([
        ///     StubStream.Piece([0x08, 0x01]),
        ///     StubStream.Piece([0x08, 0x02], delay: .milliseconds(100)),
        /// ]))
        /// server.stubRequest("POST", "/shop.Items/Get").andReturn(.grpc(status: 5, message: "no item 7"))
        /// ```
        ///
        /// - Parameters:
        ///   - messages: the messages without their prefixes (serialized protobuf, say), each with the wait before it.
        ///   - status: the gRPC status code (0 is `OK`).
        ///   - message: the status message, if any.
        ///   - headers: headers sent with the head (`content-type` is `application/grpc` unless they give one).
        public static func grpc(_ messages: [StubStream.Piece] = [], status: Int = 0, message: String? = nil, headers: HTTPHeaderFields = [:]) -> Stub.Response {
            var response = Stub.Response(status: 200, headers: headers)
            response.grpc = GRPCAnswer(messages: messages, status: status, message: message)
            return response
        }

        /// RST_STREAM on the request's stream, with the RFC 9113 error `code` (`"CANCEL"`,
        /// `"REFUSED_STREAM"`, …), in place of the response. On an HTTP/1.1 connection the
        /// connection is reset instead.
        ///
        /// ```swift
        /// server.stubRequest("GET", "/busy").andReturn(try .resetStream("REFUSED_STREAM"))
        /// ```
        ///
        /// - Throws: ``StubError/unknownHTTP2Error(_:)`` when RFC 9113 §7 names no error `code`.
        public static func resetStream(_ code: String = "CANCEL") throws -> Stub.Response {
            try http2Fault(.reset(code: http2ErrorName(code)))
        }

        /// GOAWAY with the RFC 9113 error `code`, whose last stream is the one before the request's,
        /// in place of the response; then the connection closes (as it does on HTTP/1.1).
        ///
        /// - Throws: ``StubError/unknownHTTP2Error(_:)`` when RFC 9113 §7 names no error `code`.
        public static func goAway(_ code: String = "NO_ERROR") throws -> Stub.Response {
            try http2Fault(.goaway(code: http2ErrorName(code)))
        }

        /// HEADERS (`200`), then nothing: the stream stays open as if the client had granted no
        /// window, and the client's read times out. On HTTP/1.1 the connection hangs.
        public static var stalledStream: Stub.Response { http2Fault(.stall) }

        /// A HEADERS frame whose HPACK block cannot be decoded: the client fails the connection with
        /// COMPRESSION_ERROR. On HTTP/1.1 the connection closes.
        public static var badHPACKBlock: Stub.Response { http2Fault(.badHPACK) }

        /// A SETTINGS frame on the request's stream: the client fails the connection with PROTOCOL_ERROR. On
        /// HTTP/1.1 the connection closes.
        public static var illegalFrame: Stub.Response { http2Fault(.illegalFrame) }

        private static func http2Fault(_ fault: HTTPStreamFault) -> Stub.Response {
            var response = Stub.Response()
            response.http2Fault = fault
            return response
        }

        private static func http2ErrorName(_ code: String) throws(StubError) -> String {
            guard HTTPStreamFault.errorNames.contains(code) else { throw .unknownHTTP2Error(code) }
            return code
        }

        /// The same response with `trailers` sent after its body.
        ///
        /// ```swift
        /// server.stubRequest("GET", "/report").andReturn(Stub.Response.ok(body: "done").withTrailers(["Checksum": "abc"]))
        /// ```
        public func withTrailers(_ trailers: HTTPHeaderFields) -> Stub.Response {
            var copy = self
            for field in trailers { copy.trailers.add(name: field.name, value: field.value) }
            return copy
        }

        /// The same response after `delay`.
        public func delayed(by delay: Duration) -> Stub.Response {
            var copy = self
            copy.delay = delay
            return copy
        }

        /// The same response sent under `conditions` (latency, bandwidth, slices, limits), the
        /// connection's own coming back after it.
        ///
        /// ```swift
        /// var slow = NetworkConditions()
        /// slow.toClient.bytesPerSecond = 16 * 1024
        /// server.stubRequest("GET", "/video").andReturn(Stub.Response.ok(body: "…").under(slow))
        /// ```
        public func under(_ conditions: NetworkConditions) -> Stub.Response {
            var copy = self
            copy.conditions = conditions
            return copy
        }

        /// The same response with a fault: `.reset` or `.hang` instead of it, `.truncate`/`.dribble` shaping it.
        public func failing(with fault: StreamFault) -> Stub.Response {
            var copy = self
            copy.fault = fault
            return copy
        }

        /// The reply steps answering `request`: the conditions, the wait, the fault, the response (a
        /// gRPC answer's steps hold its wait, to measure it against the request's deadline, after a fault that shapes it).
        func replySteps(for request: HTTPMockRequest?) -> [ReplyStep<HTTPReplyOutput>] {
            var steps: [ReplyStep<HTTPReplyOutput>] = []
            if let conditions { steps.append(.conditions(conditions)) }
            if let delay, grpc == nil || fault == .reset || fault == .hang { steps.append(.pause(delay)) }
            if let http2Fault { return steps + [.output(.streamFault(http2Fault))] }
            if case .truncateBody(let count)? = fault {
                var whole = self
                whole.fault = nil
                whole.delay = grpc == nil ? nil : delay
                whole.conditions = nil
                return steps + HTTPBodyCut.steps(whole.replySteps(for: request), cutAfter: count, request: request)
            }
            if let fault { steps.append(.fault(fault)) }
            switch fault {
            case .reset?, .hang?: break
            default:
                if let grpc {
                    steps += grpc.steps(for: request, delay: delay, headers: headers)
                    break
                }
                var response = HTTPMockResponse(status: status, reason: reason, headers: headers, body: body)
                response.trailers = trailers
                guard let stream else {
                    steps.append(.output(.response(response)))
                    break
                }
                // The head, with chunked coding and no length, then the pieces as chunks and the trailers.
                var streamed = HTTPStreamedBody(stream.pieces, end: stream.end)
                streamed.trailers = trailers
                steps.append(.output(.response(streamed.head(for: response))))
                steps += streamed.steps
            }
            return steps
        }
    }
}
