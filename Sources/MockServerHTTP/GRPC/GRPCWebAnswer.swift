import MockServerCore

/// A gRPC answer to a gRPC-Web call (the gRPC project's PROTOCOL-WEB): `200` in the content type
/// the call asked for, the messages framed as gRPC frames them, then the status as a trailer frame
/// in the body (flag `0x80`, `grpc-status:N\r\ngrpc-message:…\r\n`), never as HTTP trailers, which
/// browsers cannot read; for `application/grpc-web-text` each chunk in base64, padded. A cross-origin
/// call's answer allows its origin and exposes the status fields (``GRPCWebCORS``).
///
/// An error with no messages is a `200` whose body is the trailer frame alone, as for every other
/// answer: gRPC-Web clients (the gRPC project's, Connect's, sonora) read the status from a trailer
/// frame or from the headers alike, Envoy's filter passes a trailers-only answer on with the status
/// in the headers, but only the body reaches a page's script whatever fields it may read.
package struct GRPCWebAnswer: Sendable, Hashable {
    /// The answer: its messages, status and message.
    package var answer: GRPCAnswer
    /// What the call asked for.
    package var format: GRPCWebFormat

    package init(_ answer: GRPCAnswer, format: GRPCWebFormat) {
        self.answer = answer
        self.format = format
    }

    /// The reply steps answering `request` after `delay`, with `headers` added to the head: the
    /// head, each message framed (and encoded) and sent after its wait as a chunk, then the trailer
    /// frame as the last chunk. The request's `grpc-timeout` cuts the answer at its deadline with
    /// status 4 (`DEADLINE_EXCEEDED`), as for gRPC; one that cannot be read gets status 13 naming it.
    package func steps(for request: HTTPMockRequest?, delay: Duration?, headers: HTTPHeaderFields) -> [ReplyStep<HTTPReplyOutput>] {
        var steps: [ReplyStep<HTTPReplyOutput>] = delay.map { [.pause($0)] } ?? []
        let head = Self.head(format: format, request: request, adding: headers)
        var deadline: Duration?
        if let value = request?.headers[GRPCTimeout.header] {
            do {
                deadline = try GRPCTimeout.parse(value)
            } catch {
                steps.append(.output(.response(trailersOnly(head: head, status: GRPCAnswer.internalError, message: error.description))))
                return steps
            }
        }
        if let deadline, let delay, delay > deadline {
            return [.pause(deadline), .output(.response(trailersOnly(head: head, status: GRPCAnswer.deadlineExceeded, message: "deadline exceeded")))]
        }
        if answer.isTrailersOnly {
            steps.append(.output(.response(trailersOnly(head: head, status: answer.status, message: answer.message))))
            return steps
        }
        let sent = answer.piecesBefore(deadline, from: delay ?? .zero) { encoded(GRPCMessageCodec.frame($0)) }
        let pieces = sent.pieces + [HTTPMockResponse.StreamPiece(encoded(Self.trailerFrame(status: sent.status, message: sent.message)))]
        let body = HTTPStreamedBody(pieces, end: .complete)
        steps.append(.output(.response(body.head(for: HTTPMockResponse(status: 200, headers: head)))))
        steps += body.steps
        return steps
    }

    /// An answer of no messages: `200`, `head`, and the trailer frame as the whole body.
    private func trailersOnly(head: HTTPHeaderFields, status: Int, message: String?) -> HTTPMockResponse {
        HTTPMockResponse(status: 200, headers: head, body: encoded(Self.trailerFrame(status: status, message: message)))
    }

    /// The trailer frame of a status: `grpc-status` and, when there is a message, `grpc-message`
    /// percent-encoded (``GRPCAnswer/statusFields(status:message:)``).
    package static func trailerFrame(status: Int, message: String?) -> [UInt8] {
        GRPCWebFrame.trailerFrame(GRPCAnswer.statusFields(status: status, message: message))
    }

    /// `frame` as the body carries it: as it is, or in base64 for `-text`.
    private func encoded(_ frame: [UInt8]) -> [UInt8] {
        format.encoding == .text ? GRPCWebText.encode(frame) : frame
    }

    /// The head's fields: the content type asked for (unless `headers` give one), the cross-origin
    /// fields (``GRPCWebCORS/answerFields(for:headers:)``), then `headers`.
    private static func head(format: GRPCWebFormat, request: HTTPMockRequest?, adding headers: HTTPHeaderFields) -> HTTPHeaderFields {
        var all = HTTPHeaderFields()
        if !headers.contains("Content-Type") { all.add(name: "content-type", value: format.contentType) }
        for field in GRPCWebCORS.answerFields(for: request, headers: headers) { all.add(name: field.name, value: field.value) }
        for field in headers { all.add(name: field.name, value: field.value) }
        return all
    }
}
