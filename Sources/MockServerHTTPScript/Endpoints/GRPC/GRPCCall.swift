import MockServerCore
import MockServerHTTP

/// One gRPC call answered by an endpoint's ``GRPCEndpointAnswer``, as its request's messages arrive:
/// each goes to the first `each` rule that takes it, whose messages go at once and whose status, if
/// it has one, ends the call; after the client's last message, the answer's own messages and status.
/// Without `each`, the whole answer goes after the last message, as a bytes answer does (the
/// request's `grpc-timeout` cutting it); an answer that ends with an HTTP/2 fault sends its
/// messages one by one, then the fault. The steps make one response: its head before the first
/// message, each message as a chunk, the status as trailers (or, when nothing went before it, a
/// trailers-only response). Pure: no socket; the HTTP/2 driver feeds it
/// (``MockServerHTTP/HTTPStreamingAnswer``), and a whole body goes through ``steps(forBody:)``.
package final class GRPCCall: HTTPStreamingAnswer {
    /// Where the call stands.
    private enum Phase {
        /// Nothing went yet: a status now is a trailers-only response.
        case quiet
        /// The response's head went: messages follow as chunks, the status as trailers.
        case streaming
        /// The status went: the request's later bytes are dropped.
        case finished
    }

    /// The status of a request message that cannot be read (`INTERNAL`, as gRPC servers answer).
    static let internalError = 13
    /// The status of a request message longer than the server takes (`RESOURCE_EXHAUSTED`).
    static let resourceExhausted = 8

    package let name: String?
    private let answer: GRPCEndpointAnswer
    /// The request's head: its metadata for templates, its `grpc-timeout`.
    private let request: HTTPMockRequest
    /// The response's metadata and the status's trailers, with their values put in.
    private let headers: HTTPHeaderFields
    private let trailers: HTTPHeaderFields
    /// Values other than `${json:…}` (the request's metadata, path parameters, the cache).
    private let values: (EndpointTemplate.Source, String) -> String?
    private var reader: GRPCMessageReader
    private var phase = Phase.quiet
    /// The latest request message as JSON (the values of the answer after the last one).
    private var latest: JSONNode?
    private var notes: [Transcript.Note] = []
    /// The network conditions of the response, set before its first step; then `nil`.
    private var conditions: NetworkConditions?
    /// The response's `delay`: before the first step of an `each` call, and measured against the
    /// deadline of a call answered once.
    private var delay: Duration?

    /// A call to `request` (its head) answered by `answer`; `name` is the endpoint's, for the
    /// transcript and errors; messages longer than `maximumMessageLength` end the call; `conditions`
    /// and `delay` are the response's.
    package init(answer: GRPCEndpointAnswer, request: HTTPMockRequest, name: String?, headers: HTTPHeaderFields, trailers: HTTPHeaderFields,
                 maximumMessageLength: Int, conditions: NetworkConditions? = nil, delay: Duration? = nil,
                 values: @escaping (EndpointTemplate.Source, String) -> String?) {
        self.conditions = conditions
        self.delay = delay
        self.answer = answer
        self.request = request
        self.name = name
        self.headers = headers
        self.trailers = trailers
        self.values = values
        reader = GRPCMessageReader(maximumLength: maximumMessageLength, encoding: request.headers["grpc-encoding"])
    }

    package var isFinished: Bool {
        if case .finished = phase { true } else { false }
    }

    package var heldByteCount: Int { reader.heldByteCount }

    package func takeNotes() -> [Transcript.Note] {
        defer { notes = [] }
        return notes
    }

    /// The messages so far of a call answered whole (``steps(forBody:)``), which go as one answer
    /// with the status; `nil` while the call is answered as it streams.
    private var collected: [HTTPMockResponse.StreamPiece]?

    /// The steps answering a whole body (HTTP/1.1, gRPC-Web, a call not streamed): every rule's
    /// messages and the status as one answer, in the framing the request asked for (gRPC-Web's
    /// too), its waits measured against the request's deadline. With `overHTTP2` (a gRPC call, not
    /// gRPC-Web, whose body came whole over HTTP/2, as one with a `content-length` does), an answer
    /// that breaks off with an HTTP/2 fault goes message by message as a streamed call's does, so
    /// that its messages go before the fault.
    package func steps(forBody body: [UInt8], overHTTP2: Bool = false) -> [ReplyStep<HTTPReplyOutput>] {
        let breaksOff = answer.fault != nil || answer.each?.contains { $0.fault != nil } == true
        collected = overHTTP2 && breaksOff ? nil : []
        return received(body) + ended()
    }

    package func received(_ bytes: [UInt8]) -> [ReplyStep<HTTPReplyOutput>] {
        guard !isFinished else { return [] }
        let steps = receivedMessages(bytes)
        return steps.isEmpty ? steps : prelude() + steps
    }

    /// The response's conditions and (for an `each` call) its delay, before its first step; nothing after.
    private func prelude() -> [ReplyStep<HTTPReplyOutput>] {
        var steps: [ReplyStep<HTTPReplyOutput>] = []
        if let conditions { steps.append(.conditions(conditions)) }
        conditions = nil
        if answer.each != nil, let delay, delay > .zero { steps.append(.pause(delay)) }
        if answer.each != nil { delay = nil }
        return steps
    }

    private func receivedMessages(_ bytes: [UInt8]) -> [ReplyStep<HTTPReplyOutput>] {
        let messages: [[UInt8]]
        do {
            messages = try reader.read(bytes)
        } catch {
            return finish(code: Self.failureStatus(error), message: error.description)
        }
        var steps: [ReplyStep<HTTPReplyOutput>] = []
        for (index, message) in messages.enumerated() where !isFinished {
            steps += take(message, number: reader.count - messages.count + index + 1)
        }
        return steps
    }

    package func ended() -> [ReplyStep<HTTPReplyOutput>] {
        guard !isFinished else { return [] }
        return prelude() + endedMessages()
    }

    private func endedMessages() -> [ReplyStep<HTTPReplyOutput>] {
        do {
            try reader.finish()
        } catch {
            return finish(code: Self.failureStatus(error), message: error.description)
        }
        let values = values(of: latest)
        guard answer.each != nil || phase != .quiet || answer.fault != nil else {
            // Answered once, after the last message: as a bytes answer, cut by the request's deadline.
            var pieces: [HTTPMockResponse.StreamPiece] = []
            for (index, message) in answer.messages.enumerated() {
                switch render(message, values) {
                case .success(let bytes): pieces.append(HTTPMockResponse.StreamPiece(bytes, delay: message.delay))
                case .failure(let error): return finish(code: Self.internalError, message: "answer message \(index + 1): \(error)")
                }
            }
            phase = .finished
            var whole = GRPCAnswer(messages: pieces, status: answer.end.code, message: answer.end.message?.render(values))
            whole.trailers = trailers
            switch details(of: answer.end, values) {
            case .success(let bytes): whole.details = bytes
            case .failure(let error): return finish(code: Self.internalError, message: "details: \(error)")
            }
            return whole.steps(for: request, delay: delay, headers: headers)
        }
        var steps: [ReplyStep<HTTPReplyOutput>] = []
        // An answer without rules that breaks off with a fault goes message by message, after the
        // response's delay.
        if answer.each == nil, let delay, delay > .zero {
            steps.append(.pause(delay))
            self.delay = nil
        }
        for (index, message) in answer.messages.enumerated() {
            switch render(message, values) {
            case .success(let bytes): steps += send(bytes, after: message.delay)
            case .failure(let error): return steps + finish(code: Self.internalError, message: "answer message \(index + 1): \(error)")
            }
        }
        if let fault = answer.fault {
            // A server stream broken after its messages (an answer that goes whole, over HTTP/1.1
            // or gRPC-Web, gets the fault in its place).
            return steps + breakOff(with: fault)
        }
        return steps + finish(answer.end, values)
    }

    // MARK: Each message

    /// The steps for request message `bytes` (number `number`): its note, then the first rule's answer.
    private func take(_ bytes: [UInt8], number: Int) -> [ReplyStep<HTTPReplyOutput>] {
        var json: JSONNode?
        if let coder = answer.coder {
            do {
                json = try coder.request(bytes)
            } catch {
                notes.append(.grpcMessage(number: number, bytes, json: nil))
                return finish(code: Self.internalError, message: "request message \(number) is not a \(coder.method.inputType.dropFirst()): \(error)")
            }
        }
        notes.append(.grpcMessage(number: number, bytes, json: json.map { JSONText.write($0, layout: .compact) }))
        latest = json
        guard let rules = answer.each else { return [] }
        guard let rule = rules.first(where: { rule in
            guard let pattern = rule.request else { return true }
            guard let json else { return false }
            return pattern.matches(json)
        }) else {
            notes.append(Transcript.Note(kind: "grpc-unanswered", text: "   no \"each\" rule takes gRPC message \(number)"))
            return []
        }
        let values = values(of: json)
        var steps: [ReplyStep<HTTPReplyOutput>] = []
        for (index, message) in rule.messages.enumerated() {
            switch render(message, values) {
            case .success(let bytes): steps += send(bytes, after: message.delay)
            case .failure(let error): return steps + finish(code: Self.internalError, message: "answer message \(index + 1) to request message \(number): \(error)")
            }
        }
        if let fault = rule.fault {
            // Mid-stream: after the messages, the stream (or connection) ends as the fault says.
            steps += breakOff(with: fault)
        } else if let end = rule.end {
            steps += finish(end, values)
        }
        return steps
    }

    /// The values of templates answering request message `json`.
    private func values(of json: JSONNode?) -> (EndpointTemplate.Source, String) -> String? {
        let coder = answer.coder
        let others = values
        return { source, name in
            guard source == .json else { return others(source, name) }
            guard let json, let coder else { return nil }
            return coder.value(name, in: json)
        }
    }

    private func render(_ message: GRPCEndpointMessage, _ values: (EndpointTemplate.Source, String) -> String?) -> Result<[UInt8], GRPCAnswerFailure> {
        switch message.content {
        case .bytes(let bytes): return .success(bytes)
        case .json(_, let constant?): return .success(constant)
        case .json(let template, nil):
            guard let coder = answer.coder else { return .failure(GRPCAnswerFailure(text: "no schema has \(request.path)")) }
            do {
                return .success(try coder.response(text: template.render(values)))
            } catch {
                return .failure(GRPCAnswerFailure(text: error.description))
            }
        }
    }

    private func details(of end: GRPCEndpointStatus, _ values: (EndpointTemplate.Source, String) -> String?) -> Result<[UInt8]?, GRPCAnswerFailure> {
        guard !end.details.isEmpty else { return .success(nil) }
        guard let schema = answer.schema else { return .failure(GRPCAnswerFailure(text: "details need a schema")) }
        do {
            return .success(try schema.statusDetails(code: end.code, message: end.message?.render(values), details: end.details, values: values))
        } catch {
            return .failure(GRPCAnswerFailure(text: error.description))
        }
    }

    // MARK: Steps

    /// A message's steps: the head first when none went, the wait, the message as a chunk.
    private func send(_ bytes: [UInt8], after delay: Duration?) -> [ReplyStep<HTTPReplyOutput>] {
        if collected != nil {
            collected?.append(HTTPMockResponse.StreamPiece(bytes, delay: delay))
            return []
        }
        var steps: [ReplyStep<HTTPReplyOutput>] = []
        if case .quiet = phase {
            phase = .streaming
            steps.append(GRPCAnswer.streamedHead(adding: headers))
        }
        if let delay, delay > .zero { steps.append(.pause(delay)) }
        steps.append(GRPCAnswer.streamedMessage(bytes))
        return steps
    }

    /// The steps ending the call with an HTTP/2 fault: a stall before any message still sends gRPC's
    /// head (the client then waits, as for a server that went quiet, rather than failing on a head
    /// without its content type).
    private func breakOff(with fault: HTTPStreamFault) -> [ReplyStep<HTTPReplyOutput>] {
        var steps: [ReplyStep<HTTPReplyOutput>] = []
        if case .stall = fault, case .quiet = phase, collected == nil { steps.append(GRPCAnswer.streamedHead(adding: headers)) }
        phase = .finished
        steps.append(.output(.streamFault(fault)))
        return steps
    }

    /// The steps ending the call with `end`.
    private func finish(_ end: GRPCEndpointStatus, _ values: (EndpointTemplate.Source, String) -> String?) -> [ReplyStep<HTTPReplyOutput>] {
        switch details(of: end, values) {
        case .success(let bytes): return finish(code: end.code, message: end.message?.render(values), details: bytes)
        case .failure(let error): return finish(code: Self.internalError, message: "details: \(error.text)")
        }
    }

    /// The steps ending the call with a status: trailers after the messages, or a trailers-only
    /// response when none went.
    private func finish(code: Int, message: String?, details: [UInt8]? = nil) -> [ReplyStep<HTTPReplyOutput>] {
        let quiet = if case .quiet = phase { true } else { false }
        phase = .finished
        if let collected {
            var whole = GRPCAnswer(messages: collected, status: code, message: message, details: details)
            whole.trailers = trailers
            return whole.steps(for: request, delay: nil, headers: headers)
        }
        if quiet {
            return [.output(.response(GRPCAnswer.trailersOnly(status: code, message: message, details: details, trailers: trailers, headers: headers)))]
        }
        return [GRPCAnswer.streamedEnd(status: code, message: message, details: details, trailers: trailers)]
    }

    private static func failureStatus(_ failure: GRPCMessageReader.Failure) -> Int {
        if case .tooLong = failure { resourceExhausted } else { internalError }
    }
}
