@_spi(HotPath) import MockServerCore
import MockServerHTTP

/// HTTP/2 on one connection (RFC 9113): reads frames, lets ``HTTP2ServerConnection`` say what they
/// mean, turns each stream's request into the ``HTTPMockRequest`` HTTP/1.1 would give, asks the
/// same ``HTTPResponder``, and runs each stream's reply steps on their own, sending its response as
/// HEADERS and DATA within both flow-control windows, and its trailers as a closing HEADERS frame.
///
/// The connection's steps are not used: everything is sent as it is decided
/// (``MockServerCore/StreamConnection/sendNow(_:)``), so a pause on one stream holds no other.
package final class HTTP2ConnectionDriver: StreamDriver {
    /// Where the connection is.
    private enum State {
        case running
        /// GOAWAY went (an error, or a close on purpose): the connection ends once its output is written.
        case closing(Transcript.CloseReason)
    }

    private var reader: HTTP2FrameReader
    private var h2: HTTP2ServerConnection
    private var state = State.running
    private var exchanges: [UInt32: HTTP2StreamExchange] = [:]
    private let responder: @Sendable () -> any HTTPResponder
    private let states = ConnectionStates()
    /// Frames decided and not yet handed to the connection.
    private var pending: [UInt8] = []
    private var started = false
    /// The request of an `Upgrade: h2c`, answered on stream 1 once the connection opens.
    private var upgraded: HTTPMockRequest?

    /// The settings the server advertises: at most 100 concurrent streams, a 1 MiB stream window.
    package static let defaultSettings: HTTP2Settings = {
        var settings = HTTP2Settings()
        settings.maxConcurrentStreams = 100
        settings.initialWindowSize = 1 << 20
        settings.enablePush = false
        return settings
    }()

    /// A driver for a connection whose next bytes are the client preface (`expectingPreface`), or
    /// whose preface was read already; requests go to the responder `responder` returns.
    package init(responder: @escaping @Sendable () -> any HTTPResponder, settings: HTTP2Settings = defaultSettings,
                 expectingPreface: Bool = true, upgraded: HTTPMockRequest? = nil) {
        self.responder = responder
        self.upgraded = upgraded
        reader = HTTP2FrameReader(expectingPreface: expectingPreface, maximumFrameSize: Int(settings.maxFrameSize))
        h2 = HTTP2ServerConnection(settings: settings, connectionWindow: 1 << 24)
    }

    package func opened(_ connection: StreamConnection) -> [StreamStep] {
        // Frames are binary: the transcript gets each stream's response instead (`recordOutput`).
        connection.recordsOutput = false
        start()
        if let request = upgraded {
            // RFC 7540 §3.2: the upgrade's request is stream 1's, half closed; the response goes there.
            upgraded = nil
            let parameters: [HTTP2Setting]
            do {
                parameters = try HTTP2Setting.parameters(upgradeField: request.headers["HTTP2-Settings"] ?? "")
            } catch {
                connectionError(error, on: connection)
                return []
            }
            h2.openUpgradedStream(peerSettings: parameters)
            let exchange = HTTP2StreamExchange(id: 1)
            exchanges[1] = exchange
            answer(request, on: exchange, connection: connection)
        }
        flush(on: connection)
        return []
    }

    private func start() {
        guard !started else { return }
        started = true
        for frame in h2.start() { HTTP2FrameWriter.write(frame, into: &pending) }
    }

    package func received(_ bytes: UnsafeRawBufferPointer, on connection: StreamConnection) {
        guard case .running = state else { return }
        start()
        reader.append(bytes)
        do {
            while case .running = state, let frame = try nextFrame(on: connection) {
                for event in try h2.receive(frame) { handle(event, on: connection) }
            }
        } catch {
            connectionError(error, on: connection)
        }
        // The read's frames are handled: tables left empty give back their capacity (once a read,
        // not once a stream), so that an idle connection keeps none.
        if exchanges.isEmpty, exchanges.capacity > 0 { exchanges = [:] }
        h2.releaseIdleCapacity()
        flush(on: connection)
    }

    /// The reader's next frame, or nil until more bytes come. A stream error it finds (a PRIORITY
    /// frame of the wrong length, a WINDOW_UPDATE of 0 on a stream) is answered with RST_STREAM and
    /// the reading goes on (§5.4.2); a connection error is thrown.
    private func nextFrame(on connection: StreamConnection) throws(HTTP2Error) -> HTTP2Frame? {
        while true {
            do {
                return try reader.nextFrame()
            } catch {
                guard case .stream = error.scope else { throw error }
                streamError(error, on: connection)
            }
        }
    }

    /// Answers a stream error with RST_STREAM; the stream's exchange ends, the connection goes on.
    private func streamError(_ error: HTTP2Error, on connection: StreamConnection) {
        connection.log(.warning, "HTTP/2 \(error)")
        HTTP2FrameWriter.write(h2.fail(error), into: &pending)
        if case .stream(let id) = error.scope { end(id) }
    }

    package func next(on connection: StreamConnection, inputEnded: Bool) -> DriverDecision {
        start()
        flush(on: connection)
        if case .closing(let reason) = state { return .finish(reason) }
        return inputEnded ? .finish(.peerClosed) : .needInput
    }

    package func closed(_ connection: StreamConnection, reason: Transcript.CloseReason) {
        for exchange in exchanges.values {
            if case .answering(let cancel) = exchange.phase { cancel() }
            exchange.phase = .done
        }
        exchanges = [:]
    }

    // MARK: Frames

    private func handle(_ event: HTTP2ServerConnection.Event, on connection: StreamConnection) {
        switch event {
        case .send(let frame):
            HTTP2FrameWriter.write(frame, into: &pending)
        case .headers(let id, let fields, let endStream):
            let exchange: HTTP2StreamExchange
            if let existing = exchanges[id] {
                // A second field block is the request's trailers, which no responder reads; they
                // must still be fields HTTP/2 allows (§8.1).
                do {
                    try HTTP2RequestHead.checkTrailers(fields, streamID: id)
                } catch {
                    return streamError(error, on: connection)
                }
                exchange = existing
            } else {
                exchange = HTTP2StreamExchange(id: id)
                exchanges[id] = exchange
                exchange.fields = fields
            }
            if endStream { requestComplete(exchange, on: connection) }
        case .data(let id, let bytes, let endStream):
            guard let exchange = exchanges[id] else { return }
            exchange.body += bytes
            // Uploads are read as they come: their window goes back at once.
            for frame in h2.release(bytes.count, on: id) { HTTP2FrameWriter.write(frame, into: &pending) }
            if endStream { requestComplete(exchange, on: connection) }
        case .streamReset(let id, let code):
            connection.log(.debug, "HTTP/2 stream \(id) reset by the client: \(code)")
            end(id)
        case .streamFailed(let error):
            connection.log(.warning, "HTTP/2 \(error)")
            if case .stream(let id) = error.scope { end(id) }
        case .goAway(_, let code, _):
            connection.log(.debug, "HTTP/2 GOAWAY from the client: \(code)")
        case .windowOpened(let id):
            if id == 0 {
                for exchange in exchanges.values.sorted(by: { $0.id < $1.id }) { sendQueued(exchange, on: connection) }
            } else if let exchange = exchanges[id] {
                sendQueued(exchange, on: connection)
            }
        case .peerSettingsChanged, .pingAcknowledged:
            break
        }
    }

    private func connectionError(_ error: HTTP2Error, on connection: StreamConnection) {
        connection.log(.warning, "HTTP/2 \(error); closing")
        HTTP2FrameWriter.write(h2.fail(error), into: &pending)
        closeConnection(.malformedInput(error.description), on: connection)
    }

    /// Sends GOAWAY's consequences: no stream goes on, and the connection closes once its output is written.
    private func closeConnection(_ reason: Transcript.CloseReason, on connection: StreamConnection) {
        state = .closing(reason)
        for exchange in exchanges.values {
            if case .answering(let cancel) = exchange.phase { cancel() }
            exchange.phase = .done
        }
        exchanges = [:]
        flush(on: connection)
        // After GOAWAY the client may still be sending (WINDOW_UPDATEs, a request): the connection
        // lingers for its end, so that no RST destroys the GOAWAY or a response it has not read.
        connection.finishAfterOutputLingering(reason)
    }

    private func end(_ id: UInt32) {
        guard let exchange = exchanges.removeValue(forKey: id) else { return }
        if case .answering(let cancel) = exchange.phase { cancel() }
        exchange.phase = .done
    }

    /// Hands what was decided to the connection.
    private func flush(on connection: StreamConnection) {
        guard !pending.isEmpty, !connection.isClosed else { return }
        let bytes = pending
        pending = []
        connection.sendNow(bytes)
    }

    // MARK: Requests

    private func requestComplete(_ exchange: HTTP2StreamExchange, on connection: StreamConnection) {
        guard case .receiving = exchange.phase else { return }
        let request: HTTPMockRequest
        do {
            request = try HTTP2RequestHead.request(fields: exchange.fields, body: exchange.body, streamID: exchange.id)
        } catch {
            return streamError(error, on: connection)
        }
        answer(request, on: exchange, connection: connection)
    }

    /// Asks the responder for a stream's answer, and runs the reply at once or when it is computed.
    private func answer(_ request: HTTPMockRequest, on exchange: HTTP2StreamExchange, connection: StreamConnection) {
        exchange.request = request
        exchange.isHead = request.method == "HEAD"
        exchange.body = []
        let context = HTTPRequestContext(connectionID: connection.id, peer: connection.peer, local: connection.localAddress,
                                         environment: connection.loop.environment, states: states, inbox: connection.loop.inbox, isHTTP2: true)
        let responder = responder()
        let answer: HTTPReply.Immediate
        do {
            answer = try responder.answerImmediately(request, context: context)
        } catch {
            return reply(failure(error, on: connection), to: exchange, on: connection)
        }
        switch answer {
        case .reply(let reply):
            self.reply(reply, to: exchange, on: connection)
        case .unmatched:
            unmatched(exchange, on: connection)
        case .deferred:
            if let responder = responder as? any HTTPLoopResponder { return answerOnLoop(responder, request, context: context, for: exchange, on: connection) }
            compute({ try await responder.respond(to: request, context: context) }, for: exchange, on: connection)
        case .asynchronous(let operation):
            compute(operation, for: exchange, on: connection)
        }
    }

    /// Computes a stream's answer in a task whose jobs run on the connection's loop (where the
    /// system has task executors), as the HTTP/1.1 driver's do: the answer never waits for Swift's
    /// cooperative pool, which the rest of the process (tests that block in a read or wait for a
    /// child process) can keep busy for many seconds. The stream's reply runs when it is back on the loop.
    private func compute(_ answer: @escaping @Sendable () async throws -> HTTPReply?, for exchange: HTTP2StreamExchange, on connection: StreamConnection) {
        let inbox = connection.loop.inbox
        let bound = LoopBound(self)
        let boundExchange = LoopBound(exchange)
        let boundConnection = LoopBound(connection)
        let operation: @Sendable () async -> Void = {
            let outcome: Result<HTTPReply?, any Error>
            do {
                outcome = .success(try await answer())
            } catch {
                outcome = .failure(error)
            }
            _ = inbox.execute { _ in bound.value.answered(outcome, exchange: boundExchange.value, on: boundConnection.value) }
        }
        let task: Task<Void, Never>
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            task = Task(executorPreference: LoopTaskExecutor.of(connection.loop), operation: operation)
        } else {
            task = Task(operation: operation)
        }
        exchange.phase = .answering(cancel: { task.cancel() })
    }

    /// Has `responder` answer a stream on the loop, with no task (as the HTTP/1.1 driver does); the
    /// stream's reply runs on a later turn, or at once when it came before the start returned.
    private func answerOnLoop(_ responder: any HTTPLoopResponder, _ request: HTTPMockRequest, context: HTTPRequestContext,
                              for exchange: HTTP2StreamExchange, on connection: StreamConnection) {
        let inbox = connection.loop.inbox
        let bound = LoopBound(self)
        let boundExchange = LoopBound(exchange)
        let boundConnection = LoopBound(connection)
        var starting = true
        var early: HTTPReply??
        exchange.phase = .answering(cancel: {})
        let cancel = responder.answer(request, context: context, on: connection.loop) { reply in
            if starting {
                early = .some(reply)
                return
            }
            inbox.execute { _ in bound.value.answered(.success(reply), exchange: boundExchange.value, on: boundConnection.value) }
        }
        starting = false
        if let early { return answered(.success(early), exchange: exchange, on: connection) }
        exchange.phase = .answering(cancel: cancel)
    }

    private func answered(_ outcome: Result<HTTPReply?, any Error>, exchange: HTTP2StreamExchange, on connection: StreamConnection) {
        guard case .answering = exchange.phase, !connection.isClosed else { return }
        switch outcome {
        case .success(let answer?): reply(answer, to: exchange, on: connection)
        case .success(nil): unmatched(exchange, on: connection)
        case .failure(let error): reply(failure(error, on: connection), to: exchange, on: connection)
        }
        flush(on: connection)
    }

    /// A request nothing answers: recorded as unmatched, and the connection closes, as on HTTP/1.1.
    private func unmatched(_ exchange: HTTP2StreamExchange, on connection: StreamConnection) {
        guard let request = exchange.request else { return }
        connection.record(.unmatched(request.input), exchange: exchange.transcriptExchange)
        connection.log(.warning, "unmatched input: \(request.input)")
        HTTP2FrameWriter.write(HTTP2Frame(streamID: 0, .goAway(lastStreamID: h2.lastPeerStreamID, code: .noError, debugData: [])), into: &pending)
        closeConnection(.unmatchedInput, on: connection)
    }

    private func failure(_ error: any Error, on connection: StreamConnection) -> HTTPReply {
        connection.log(.error, "the responder failed: \(error)")
        let body = Array("MockServer: the responder failed: \(error)\n".utf8)
        return HTTPReply(HTTPMockResponse(status: 500, headers: ["Content-Type": "text/plain; charset=utf-8"], body: body), name: "responder error")
    }

    // MARK: Replies

    private func reply(_ reply: HTTPReply, to exchange: HTTP2StreamExchange, on connection: StreamConnection) {
        guard let request = exchange.request else { return }
        if reply.isUnexpected {
            connection.record(.unmatched(request.input), exchange: exchange.transcriptExchange)
        } else {
            connection.record(.input(request.input, response: reply.name), exchange: exchange.transcriptExchange)
        }
        for note in Transcript.Note.grpcMessages(of: request) { connection.record(.note(note)) }
        connection.log(.trace, "<- HTTP/2 stream \(exchange.id): \(request.input) [\(reply.name ?? "")]")
        exchange.steps = ReplyStepCursor(reply.steps)
        exchange.phase = .replying
        run(exchange, on: connection)
    }

    /// Runs a stream's steps until one waits or they are all done.
    private func run(_ exchange: HTTP2StreamExchange, on connection: StreamConnection) {
        while case .replying = exchange.phase, case .running = state, let step = exchange.steps.next() {
            perform(step, on: exchange, connection: connection)
        }
        guard case .replying = exchange.phase, case .running = state else { return }
        finishRawResponse(exchange, on: connection)
        exchange.phase = .ending
        if let rest = exchange.chunks?.takeRest(), !rest.isEmpty { exchange.queued += rest }
        sendQueued(exchange, on: connection)
    }

    private func perform(_ step: ReplyStep<HTTPReplyOutput>, on exchange: HTTP2StreamExchange, connection: StreamConnection) {
        switch step {
        case .send(let bytes):
            if !exchange.headSent || exchange.rawResponse != nil {
                // Bytes before any response: a response written out in HTTP/1.1, read as one.
                if exchange.rawResponse == nil { exchange.rawResponse = HTTPResponseParser(requestMethod: exchange.request?.method ?? "GET") }
                do {
                    rawEvents(try exchange.rawResponse!.append(bytes), on: exchange, connection: connection)
                } catch {
                    connection.log(.warning, "HTTP/2 stream \(exchange.id): bytes sent are not an HTTP/1.1 response (\(error)); not sent")
                }
                return
            }
            guard !exchange.isHead else { return }
            exchange.queued += exchange.chunks != nil ? exchange.chunks!.take(bytes) : bytes
            // A streamed body's trailer section (a gRPC answer's status) closes the stream as HEADERS.
            if exchange.trailers.fields.isEmpty, let trailers = exchange.chunks?.trailers { exchange.trailers = trailers }
            sendQueued(exchange, on: connection)
        case .pause(let duration):
            connection.record(.paused(duration))
            exchange.phase = .paused
            sendQueued(exchange, on: connection)
            connection.loop.schedule(after: duration) { [weak self, weak connection] in
                guard let self, let connection, !connection.isClosed, case .paused = exchange.phase else { return }
                exchange.phase = .replying
                self.run(exchange, on: connection)
                self.flush(on: connection)
            }
        case .close:
            // The stream ends with what was sent, all of it, as the windows let it go; then the
            // connection closes (GOAWAY first).
            finishRawResponse(exchange, on: connection)
            exchange.phase = .ending
            exchange.closesConnection = true
            sendQueued(exchange, on: connection)
        case .fault(.hang):
            exchange.phase = .hanging
            sendQueued(exchange, on: connection)
        case .fault(let fault):
            // The connection's faults act on the connection: every stream ends with it.
            connection.log(.debug, "HTTP/2 stream \(exchange.id): fault \(fault) on the connection")
            sendQueued(exchange, on: connection, whileReplying: true)
            flush(on: connection)
            exchange.phase = .done
            state = .closing(.script)
            connection.hold()
            connection.resume(with: [.fault(fault)])
        case .conditions(let conditions):
            connection.runUnder(conditions)
        case .output(.response(let response)):
            sendHead(response, on: exchange, connection: connection)
        case .output(.continueRequest):
            break
        case .output(.streamFault(let fault)):
            fail(exchange, with: fault, on: connection)
        case .output(.upgrade(let upgrade)):
            connection.log(.warning, "a \(upgrade.name) upgrade cannot run on an HTTP/2 stream; the stream is reset with HTTP_1_1_REQUIRED")
            HTTP2FrameWriter.write(h2.fail(HTTP2Error(.http11Required, stream: exchange.id, "\(upgrade.name) needs HTTP/1.1")), into: &pending)
            end(exchange.id)
        case .then:
            // The cursor works a `then` out before handing out the steps it returns.
            break
        }
    }

    /// A fault on demand: RST_STREAM on the stream; GOAWAY naming the stream before it as the last
    /// one processed, after which the connection closes; or the stream left open after its HEADERS
    /// (a stall), a field block no decoder reads, or a SETTINGS frame on the stream, after which nothing
    /// more is sent on the stream.
    private func fail(_ exchange: HTTP2StreamExchange, with fault: HTTPStreamFault, on connection: StreamConnection) {
        connection.log(.debug, "HTTP/2 stream \(exchange.id): \(fault) on demand")
        switch fault {
        case .reset(let name):
            let code = HTTP2ErrorCode(name: name) ?? .internalError
            // What the steps sent before the fault goes first.
            sendQueued(exchange, on: connection, whileReplying: true)
            HTTP2FrameWriter.write(h2.fail(HTTP2Error(code, stream: exchange.id, "reset on demand")), into: &pending)
            end(exchange.id)
        case .goaway(let name):
            let code = HTTP2ErrorCode(name: name) ?? .internalError
            sendQueued(exchange, on: connection, whileReplying: true)
            let last = exchange.id > 2 ? exchange.id - 2 : 0
            HTTP2FrameWriter.write(HTTP2Frame(streamID: 0, .goAway(lastStreamID: last, code: code, debugData: Array("GOAWAY on demand".utf8))), into: &pending)
            closeConnection(.script, on: connection)
        case .stall:
            // As if the client's window were zero: the head goes (unless it went), the body never does.
            if !exchange.headSent {
                exchange.headSent = true
                if let frames = try? h2.sendHeaders([HPACKHeader(":status", "200")], on: exchange.id, endStream: false) {
                    for frame in frames { HTTP2FrameWriter.write(frame, into: &pending) }
                }
            }
            exchange.queued = []
            exchange.phase = .hanging
        case .badHPACK:
            // RFC 7541 §6.1: index 0 is not a field; a decoder must fail with COMPRESSION_ERROR.
            exchange.headSent = true
            HTTP2FrameWriter.write(HTTP2Frame(streamID: exchange.id, .headers(block: [0x80], endStream: false, endHeaders: true)), into: &pending)
            exchange.queued = []
            exchange.phase = .hanging
        case .illegalFrame:
            // RFC 9113 §6.5: SETTINGS on a stream other than 0 is a connection error, PROTOCOL_ERROR.
            // (Chosen over DATA on stream 0, which grpcio ignores.)
            HTTP2FrameWriter.write(HTTP2Frame(streamID: exchange.id, .settings([], ack: false)), into: &pending)
            exchange.queued = []
            exchange.phase = .hanging
        }
    }

    /// What a raw HTTP/1.1 response's bytes gave: its head as HEADERS, its body as DATA.
    private func rawEvents(_ events: [HTTPResponseParser.Event], on exchange: HTTP2StreamExchange, connection: StreamConnection) {
        for event in events {
            switch event {
            case .head(let head):
                sendHead(HTTPMockResponse(status: head.status, reason: head.reason, headers: head.headers), on: exchange, connection: connection, raw: true)
            case .body(let bytes):
                if !exchange.isHead { exchange.queued += bytes }
            case .end:
                break
            }
        }
        sendQueued(exchange, on: connection)
    }

    /// The end of a raw response's bytes: a body its close delimits is complete.
    private func finishRawResponse(_ exchange: HTTP2StreamExchange, on connection: StreamConnection) {
        guard var parser = exchange.rawResponse else { return }
        exchange.rawResponse = nil
        if let events = try? parser.finish() { rawEvents(events, on: exchange, connection: connection) }
    }

    /// A response's HEADERS frame, and its body queued as DATA; a `raw` one (read from HTTP/1.1
    /// bytes) keeps its own length, and its body comes decoded.
    private func sendHead(_ response: HTTPMockResponse, on exchange: HTTP2StreamExchange, connection: StreamConnection, raw: Bool = false) {
        guard !exchange.headSent else {
            connection.log(.warning, "HTTP/2 stream \(exchange.id): a second response on the stream is not sent")
            return
        }
        exchange.headSent = true
        let streamed = raw || response.headers.hasToken("chunked", in: "Transfer-Encoding")
        if streamed, !raw { exchange.chunks = HTTP2ChunkReader() }
        let sendsBody = !exchange.isHead && !response.isBodiless
        var fields: [HPACKHeader] = []
        fields.reserveCapacity(response.headers.count + 2)
        fields.append(HPACKHeader(name: HTTP2RequestHead.statusName, value: Array(String(response.status).utf8)))
        for field in response.headers {
            let name = HTTP2RequestHead.lowercasedName(field.name)
            if !HTTP2RequestHead.connectionSpecific.contains(name) { fields.append(HPACKHeader(name: name, value: Array(field.value.utf8))) }
        }
        if !streamed, !response.headers.contains("Content-Length"), !response.isBodiless {
            fields.append(HPACKHeader("content-length", String(response.body.count)))
        }
        exchange.trailers = response.trailers
        // A response with nothing after its head (a gRPC trailers-only error, a HEAD's answer, an
        // empty body as the last step) ends the stream on its HEADERS frame, as gRPC clients require.
        let endsHere = !streamed && (!sendsBody || response.body.isEmpty) && exchange.queued.isEmpty
            && response.trailers.fields.isEmpty && exchange.steps.isAtEnd
        do {
            for frame in try h2.sendHeaders(fields, on: exchange.id, endStream: endsHere) { HTTP2FrameWriter.write(frame, into: &pending) }
        } catch {
            connection.log(.warning, "HTTP/2 \(error)")
            return
        }
        recordOutput("HTTP/2 \(response.status)\r\n" + Self.fieldLines(fields.dropFirst()), on: exchange, connection: connection)
        if endsHere {
            ended(exchange, on: connection)
            return
        }
        if sendsBody { exchange.queued += response.body }
        sendQueued(exchange, on: connection)
    }

    /// Sends what the windows allow of a stream's queued bytes, and ends the stream when its steps
    /// are done and nothing is left (with its trailers, if any). While the steps run, the bytes wait
    /// (unless `whileReplying`) for them to stop at a pause, a hang or the end, so that a response's
    /// last DATA frame carries END_STREAM instead of an empty frame after it.
    private func sendQueued(_ exchange: HTTP2StreamExchange, on connection: StreamConnection, whileReplying: Bool = false) {
        guard case .running = state, exchanges[exchange.id] === exchange else { return }
        if case .replying = exchange.phase, !whileReplying { return }
        let ending: Bool = if case .ending = exchange.phase { true } else { false }
        if ending, !exchange.headSent {
            // Steps that sent no response: the stream still needs a head.
            sendHead(HTTPMockResponse(status: 200), on: exchange, connection: connection)
            return
        }
        let endsWithData = ending && exchange.trailers.fields.isEmpty
        if !exchange.queued.isEmpty || endsWithData {
            let (frames, sent) = h2.sendData(exchange.queued[...], on: exchange.id, endStream: endsWithData)
            for frame in frames { HTTP2FrameWriter.write(frame, into: &pending) }
            if sent > 0 { recordOutput(Array(exchange.queued[..<sent]), on: exchange, connection: connection) }
            exchange.queued.removeFirst(sent)
        }
        guard ending, exchange.queued.isEmpty else { return }
        if !exchange.trailers.fields.isEmpty {
            let fields = exchange.trailers.map { HPACKHeader($0.name.lowercased(), $0.value) }
            if let frames = try? h2.sendHeaders(fields, on: exchange.id, endStream: true) {
                for frame in frames { HTTP2FrameWriter.write(frame, into: &pending) }
                recordOutput(Self.fieldLines(fields[...]), on: exchange, connection: connection)
            }
        }
        ended(exchange, on: connection)
    }

    /// A stream whose end went: it is over, and after a «close» so is the connection (GOAWAY first).
    private func ended(_ exchange: HTTP2StreamExchange, on connection: StreamConnection) {
        exchanges[exchange.id] = nil
        exchange.phase = .done
        guard exchange.closesConnection else { return }
        HTTP2FrameWriter.write(HTTP2Frame(streamID: 0, .goAway(lastStreamID: h2.lastPeerStreamID, code: .noError, debugData: [])), into: &pending)
        closeConnection(.script, on: connection)
    }

    // MARK: Transcript

    /// Records what a stream sent as its request's exchange's output, readable as HTTP/1.1's is: the
    /// head (`HTTP/2 200` and its fields), the body's bytes as they went, the trailers' fields.
    private func recordOutput(_ text: String, on exchange: HTTP2StreamExchange, connection: StreamConnection) {
        recordOutput(Array(text.utf8), on: exchange, connection: connection)
    }

    private func recordOutput(_ bytes: [UInt8], on exchange: HTTP2StreamExchange, connection: StreamConnection) {
        connection.record(.output(bytes), exchange: exchange.transcriptExchange)
    }

    /// Fields as `name: value` lines, then the empty line.
    private static func fieldLines(_ fields: ArraySlice<HPACKHeader>) -> String {
        fields.map { "\(String(decoding: $0.name, as: UTF8.self)): \(String(decoding: $0.value, as: UTF8.self))\r\n" }.joined() + "\r\n"
    }
}
