import MockServerCore

/// A gRPC answer: messages (each after its delay), then `grpc-status` and `grpc-message` as
/// trailers; or, for an error with no messages, a trailers-only response (the status in the
/// headers, no body). The one model behind an endpoints file's `"grpc"` and a stub's
/// `andReturnGRPC`; the request's `grpc-timeout` ends it at the deadline with `DEADLINE_EXCEEDED`.
package struct GRPCAnswer: Sendable, Hashable {
    /// The messages, without their prefixes, each with the wait before it.
    package var messages: [HTTPMockResponse.StreamPiece]
    /// The gRPC status code: 0 (`OK`) to 16.
    package var status: Int
    /// The status message (`grpc-message`), if any.
    package var message: String?
    /// A `google.rpc.Status` message's bytes, sent as `grpc-status-details-bin` beside the status
    /// (the error's details), if any.
    package var details: [UInt8]?
    /// Metadata sent with the status (the response's `"trailers"`).
    package var trailers: HTTPHeaderFields = [:]

    /// `DEADLINE_EXCEEDED`, the status of an answer cut at the request's deadline.
    package static let deadlineExceeded = 4
    /// `UNIMPLEMENTED`, the status of a call that nothing answers.
    package static let unimplemented = 12
    /// `INTERNAL`, the status of an answer to a request whose `grpc-timeout` cannot be read.
    package static let internalError = 13

    package init(messages: [HTTPMockResponse.StreamPiece], status: Int = 0, message: String? = nil, details: [UInt8]? = nil) {
        self.messages = messages
        self.status = status
        self.message = message
        self.details = details
    }

    /// Whether the answer is a trailers-only error: a status other than 0 and no messages.
    package var isTrailersOnly: Bool { status != 0 && messages.isEmpty }

    /// The reply steps answering `request` after `delay`, with `headers` added to the head: the
    /// head (`200`, `content-type: application/grpc`), each message framed and sent after its wait
    /// as a chunk, then the trailers. When the request's `grpc-timeout` passes before the answer
    /// ends, it ends at the deadline with status 4; when the header cannot be read, the answer is a
    /// trailers-only status 13 naming the fault.
    package func steps(for request: HTTPMockRequest?, delay: Duration?, headers: HTTPHeaderFields) -> [ReplyStep<HTTPReplyOutput>] {
        // A gRPC-Web call (content type application/grpc-web…) gets the same answer in its framing.
        if let web = GRPCWebFormat(of: request) { return GRPCWebAnswer(self, format: web).steps(for: request, delay: delay, headers: headers) }
        var deadline: Duration?
        if let value = request?.headers[GRPCTimeout.header] {
            do {
                deadline = try GRPCTimeout.parse(value)
            } catch {
                var steps: [ReplyStep<HTTPReplyOutput>] = delay.map { [.pause($0)] } ?? []
                steps.append(.output(.response(Self.trailersOnly(status: Self.internalError, message: error.description, headers: headers))))
                return steps
            }
        }
        var elapsed = delay ?? .zero
        if let deadline, elapsed > deadline {
            return [.pause(deadline), .output(.response(Self.trailersOnly(status: Self.deadlineExceeded, message: "deadline exceeded", headers: headers)))]
        }
        var steps: [ReplyStep<HTTPReplyOutput>] = delay.map { [.pause($0)] } ?? []
        if isTrailersOnly {
            steps.append(.output(.response(Self.trailersOnly(status: status, message: message, details: details, trailers: trailers, headers: headers))))
            return steps
        }
        if messages.allSatisfy({ ($0.delay ?? .zero) <= .zero }) {
            // Nothing waits, so no deadline can cut it: one response, its body every message framed
            // and its trailers the status (on HTTP/2 one HEADERS, one DATA, the trailers' HEADERS),
            // not a streamed body read back out of chunks (about 95,000 instructions a call:
            // BENCHMARKS.md, session 32).
            var body: [UInt8] = []
            body.reserveCapacity(messages.reduce(0) { $0 + $1.bytes.count + GRPCMessageCodec.prefixSize })
            for piece in messages { body += GRPCMessageCodec.frame(piece.bytes) }
            var response = HTTPMockResponse(status: 200, headers: Self.head(adding: headers), body: body)
            response.trailers = Self.statusFields(status: status, message: message, details: details, trailers: trailers)
            steps.append(.output(.response(response)))
            return steps
        }
        var pieces: [HTTPMockResponse.StreamPiece] = []
        var (status, message, details) = (status, message, details)
        for piece in messages {
            let wait = piece.delay ?? .zero
            if let deadline, elapsed + wait > deadline {
                // Nothing more before the deadline: the wait up to it, then the trailers.
                pieces.append(HTTPMockResponse.StreamPiece([], delay: deadline - elapsed))
                (status, message, details) = (Self.deadlineExceeded, "deadline exceeded", nil)
                break
            }
            elapsed += wait
            pieces.append(HTTPMockResponse.StreamPiece(GRPCMessageCodec.frame(piece.bytes), delay: piece.delay))
        }
        var body = HTTPStreamedBody(pieces, end: .complete)
        body.trailers = Self.statusFields(status: status, message: message, details: details, trailers: trailers)
        steps.append(.output(.response(body.head(for: HTTPMockResponse(status: 200, headers: Self.head(adding: headers))))))
        steps += body.steps
        return steps
    }

    /// A trailers-only response: `200`, `content-type: application/grpc`, the status fields in the
    /// headers, no body.
    package static func trailersOnly(status: Int, message: String?, details: [UInt8]? = nil, trailers: HTTPHeaderFields = [:],
                                     headers: HTTPHeaderFields = [:]) -> HTTPMockResponse {
        var all = head(adding: headers)
        for field in statusFields(status: status, message: message, details: details, trailers: trailers) { all.add(name: field.name, value: field.value) }
        return HTTPMockResponse(status: 200, headers: all)
    }

    /// `grpc-status`; when there is a message, `grpc-message` percent-encoded; when there are
    /// details, `grpc-status-details-bin` (base64 without padding, as gRPC's binary metadata is
    /// sent); then `trailers`.
    package static func statusFields(status: Int, message: String?, details: [UInt8]? = nil, trailers: HTTPHeaderFields = [:]) -> HTTPHeaderFields {
        var fields = HTTPHeaderFields()
        fields.add(name: "grpc-status", value: String(status))
        if let message, !message.isEmpty { fields.add(name: "grpc-message", value: percentEncoded(message)) }
        if let details {
            var encoded = Base64.encode(details)
            while encoded.hasSuffix("=") { encoded.removeLast() }
            fields.add(name: "grpc-status-details-bin", value: encoded)
        }
        for field in trailers { fields.add(name: field.name, value: field.value) }
        return fields
    }

    /// The head of an answer sent a message at a time (a call answered as it streams): `200`,
    /// `content-type: application/grpc` after `headers`, a chunked body to come.
    package static func streamedHead(adding headers: HTTPHeaderFields) -> ReplyStep<HTTPReplyOutput> {
        .output(.response(HTTPStreamedBody.head(of: HTTPMockResponse(status: 200, headers: head(adding: headers)))))
    }

    /// One message of an answer sent a message at a time: framed, as a chunk.
    package static func streamedMessage(_ message: [UInt8]) -> ReplyStep<HTTPReplyOutput> {
        .send(HTTPStreamedBody.chunk(GRPCMessageCodec.frame(message)))
    }

    /// The end of an answer sent a message at a time: the status fields as the last chunk's trailers.
    package static func streamedEnd(status: Int, message: String?, details: [UInt8]? = nil, trailers: HTTPHeaderFields = [:]) -> ReplyStep<HTTPReplyOutput> {
        .send(HTTPResponseSerializer.lastChunk(trailers: statusFields(status: status, message: message, details: details, trailers: trailers)))
    }

    /// `headers` after `content-type: application/grpc` (unless they give a content type).
    package static func head(adding headers: HTTPHeaderFields) -> HTTPHeaderFields {
        var all = HTTPHeaderFields()
        if !headers.contains("Content-Type") { all.add(name: "content-type", value: "application/grpc") }
        for field in headers { all.add(name: field.name, value: field.value) }
        return all
    }

    /// `text` as gRPC's spec writes a `grpc-message`: its UTF-8 bytes, those outside space to `~`
    /// and `%` itself as `%XX` (upper-case hex).
    package static func percentEncoded(_ text: String) -> String {
        PercentCoding.encode(text.utf8) { (0x20...0x7E).contains($0) && $0 != 0x25 }
    }
}
