@_spi(HotPath) import MockServerCore
import MockServerHTTP

/// HTTP/2 on one connection (RFC 9113): reads frames, lets ``HTTP2ServerConnection`` say what they
/// mean, turns each stream's request into the ``HTTPMockRequest`` HTTP/1.1 would give, asks the
/// same ``HTTPMockResponder``, and runs each stream's reply steps on their own, sending its response as
/// HEADERS and DATA within both flow-control windows, and its trailers as a closing HEADERS frame.
///
/// The connection's steps are not used: everything is sent as it is decided
/// (``MockServerCore/StreamConnection/sendNow(_:)``), so a pause on one stream holds no other.
///
/// What the server holds for a peer stays bounded whatever the peer does: a stream keeps its
/// response's body as the response's own bytes, shared (``HTTP2OutgoingBytes``), not a copy; DATA is
/// framed only while the connection's output has room (``MockServerCore/StreamConnection/outputRoom``,
/// 256 KiB), and goes on, stream after stream in turn, once it drains; a stream's steps wait while
/// it has ``streamQueueLimit`` bytes queued.
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
    private let responder: @Sendable () -> any HTTPMockResponder
    /// The longest request body a stream may send (``MockServerHTTP/HTTPRequestLimits``, HTTP/1.1's
    /// too): a longer one is answered `413 Content Too Large` as soon as it passes, and the rest of
    /// it is read and dropped.
    private let maximumRequestBodySize: Int
    /// The bytes of request bodies the connection holds: each stream's body from its first byte
    /// until the stream ends (a request is answered once its body is whole, and keeps it while it is
    /// answered), and what answers that take a body as it streams hold of a message not complete
    /// yet. At most ``maximumRequestBodySize`` together, as an HTTP/1.1 connection, which holds one
    /// request at a time, so that a client's streams cannot make the server hold one limit each
    /// (100 streams of 64 MiB).
    private var heldRequestBytes = 0
    private let states = ConnectionStates()
    /// Frames decided and not yet handed to the connection.
    private var pending: [UInt8] = []
    private var started = false
    /// The request of an `Upgrade: h2c`, answered on stream 1 once the connection opens.
    private var upgraded: HTTPMockRequest?
    /// The budgets of resets and of frames that carry nothing (``HTTP2DefenceLimits``).
    private var floodGuard: HTTP2FloodGuard
    /// The zero-window defence, unless it is off.
    private var stallWatch: HTTP2StallWatch?
    /// Set when a stream stopped framing DATA that its windows allowed because the connection's
    /// output was full: the streams go on once it has room (``outputDrained(on:)``).
    private var blockedOnRoom = false
    /// The stream that last sent in a turn of ``sendWaiting(on:)``: the next turn starts after it.
    private var lastServed: UInt32 = 0

    /// A stream's queued bytes past which its steps wait for them to go (a streamed body or a
    /// script's sends that a zero window holds back): its own memory stays near this, plus one send.
    /// A response's body counts, but is shared with the response rather than held twice. The steps
    /// go on once half of it is left, so that what goes meanwhile fills whole DATA frames.
    package static let streamQueueLimit = 64 * 1024
    /// The frames decided and not yet handed to the connection are handed over past this many bytes,
    /// so that the connection's room (``MockServerCore/StreamConnection/hasOutputRoom``) is checked
    /// between sends of a large body.
    static let handOverSize = 64 * 1024
    /// What a stream sends in its turn when several wait for room in the connection's output: one
    /// DATA frame of the default size, so that none waits behind another's whole body.
    static let fairShare = 16 * 1024

    /// The settings the server advertises: at most 100 concurrent streams, a 1 MiB stream window.
    package static let defaultSettings: HTTP2Settings = {
        var settings = HTTP2Settings()
        settings.maxConcurrentStreams = 100
        settings.initialWindowSize = 1 << 20
        settings.enablePush = false
        return settings
    }()

    /// A driver for a connection whose next bytes are the client preface (`expectingPreface`), or
    /// whose preface was read already; requests go to the responder `responder` returns, and the
    /// client's floods meet `defences`.
    package init(responder: @escaping @Sendable () -> any HTTPMockResponder, settings: HTTP2Settings = defaultSettings,
                 defences: HTTP2DefenceLimits = .standard, maximumRequestBodySize: Int = HTTPRequestLimits.defaultMaximumBodyLength,
                 expectingPreface: Bool = true, upgraded: HTTPMockRequest? = nil) {
        self.responder = responder
        self.maximumRequestBodySize = maximumRequestBodySize
        self.upgraded = upgraded
        floodGuard = HTTP2FloodGuard(defences)
        stallWatch = defences.zeroWindowTimeout.map { HTTP2StallWatch(timeout: MonotonicClock.nanoseconds($0)) }
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

    package func outputDrained(on connection: StreamConnection) {
        guard case .running = state else { return }
        flush(on: connection)
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
                if let breach = floodGuard.admit(frame, isOpen: { h2.state(of: $0) != nil }, now: MonotonicClock.now) {
                    defend(breach, on: connection)
                    break
                }
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
                guard case .running = state else { return nil }
            }
        }
    }

    /// Answers a stream error with RST_STREAM; the stream's exchange ends, the connection goes on,
    /// unless the client's errors have spent the empty-frame budget.
    private func streamError(_ error: HTTP2Error, on connection: StreamConnection) {
        connection.log(.warning, "HTTP/2 \(error)")
        HTTP2FrameWriter.write(h2.fail(error), into: &pending)
        if case .stream(let id) = error.scope { end(id, on: connection) }
        if let breach = floodGuard.admitStreamError(now: MonotonicClock.now) { defend(breach, on: connection) }
    }

    package func next(on connection: StreamConnection, inputEnded: Bool) -> DriverDecision {
        start()
        flush(on: connection)
        if case .closing(let reason) = state { return .finish(reason) }
        return inputEnded ? .finish(.peerClosed) : .needInput
    }

    package func closed(_ connection: StreamConnection, reason: Transcript.CloseReason) {
        for exchange in exchanges.values {
            let cancel = exchange.changeState { $0.reset() }
            cancel?()
            discardQueued(exchange, on: connection)
        }
        exchanges = [:]
        heldRequestBytes = 0
    }

    // MARK: Frames

    private func handle(_ event: HTTP2ServerConnection.Event, on connection: StreamConnection) {
        // A defence may have ended the connection on an earlier event of the same frame.
        guard case .running = state else { return }
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
                if endStream, let answer = existing.streamingAnswer {
                    if !answer.isFinished { feed(existing, answer.ended(), on: connection) }
                    countHeld(by: answer, of: existing)
                    for note in answer.takeNotes() { connection.record(.note(note)) }
                    return
                }
            } else {
                exchange = HTTP2StreamExchange(id: id)
                exchanges[id] = exchange
                exchange.fields = fields
                if !endStream, let streaming = responder() as? any HTTPStreamingResponder {
                    return startStreaming(exchange, with: streaming, on: connection)
                }
            }
            if endStream { requestComplete(exchange, on: connection) }
        case .data(let id, let bytes, let endStream):
            // Uploads are read as they come: their window goes back at once, a refused body's too
            // (its stream may be answered already), so that the connection's window never shuts.
            for frame in h2.release(bytes.count, on: id) { HTTP2FrameWriter.write(frame, into: &pending) }
            if let exchange = exchanges[id], let answer = exchange.streamingAnswer {
                // A call answered as it streams: its bytes go to the answer until it ended.
                guard !answer.isFinished else { return }
                guard heldRequestBytes + bytes.count <= maximumRequestBodySize else {
                    return refuseStreamedBody(exchange, on: connection)
                }
                feed(exchange, answer.received(bytes), on: connection)
                if endStream, exchanges[id] === exchange, !answer.isFinished { feed(exchange, answer.ended(), on: connection) }
                countHeld(by: answer, of: exchange)
                for note in answer.takeNotes() { connection.record(.note(note)) }
                return
            }
            // A body refused already is dropped as it comes.
            guard let exchange = exchanges[id], exchange.state.isReceiving else { return }
            guard exchange.body.count + bytes.count <= maximumRequestBodySize else {
                return refuseBody(exchange, on: connection, error: .bodyTooLong(limit: maximumRequestBodySize))
            }
            guard heldRequestBytes + bytes.count <= maximumRequestBodySize else {
                return refuseBody(exchange, on: connection, error: .heldBodiesTooLong(limit: maximumRequestBodySize))
            }
            exchange.body += bytes
            exchange.heldBytes += bytes.count
            heldRequestBytes += bytes.count
            if endStream { requestComplete(exchange, on: connection) }
        case .streamReset(let id, let code):
            connection.log(.debug, "HTTP/2 stream \(id) reset by the client: \(code)")
            end(id, on: connection)
        case .streamFailed(let error):
            connection.log(.warning, "HTTP/2 \(error)")
            if case .stream(let id) = error.scope { end(id, on: connection) }
            if let breach = floodGuard.admitStreamError(now: MonotonicClock.now) { defend(breach, on: connection) }
        case .goAway(_, let code, _):
            connection.log(.debug, "HTTP/2 GOAWAY from the client: \(code)")
        case .windowOpened(let id):
            stallWatch?.windowOpened()
            if id == 0 {
                sendWaiting(on: connection)
            } else if let exchange = exchanges[id] {
                sendAndResume(exchange, on: connection)
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

    /// Ends the connection for a flood defence: GOAWAY with its error (ENHANCE_YOUR_CALM) and its
    /// reason as debug data; the transcript's close names the defence.
    private func defend(_ error: HTTP2Error, on connection: StreamConnection) {
        connection.log(.warning, "HTTP/2 \(error); closing")
        HTTP2FrameWriter.write(h2.fail(error), into: &pending)
        closeConnection(.defence(error.reason), on: connection)
    }

    // MARK: Zero windows

    /// The zero-window defence's look after a turn: a wait that begins arms its timer.
    private func watchWindows(on connection: StreamConnection) {
        guard case .running = state, !connection.isClosed,
              let deadline = stallWatch?.observe(blocked: isWaitingOnWindows, now: MonotonicClock.now) else { return }
        armStallTimer(at: deadline, on: connection)
    }

    /// Whether response bytes wait and no window lets any of them go (at once false with no
    /// stream under way: a small answer's turn costs no walk over the streams).
    private var isWaitingOnWindows: Bool {
        guard !exchanges.isEmpty else { return false }
        var waiting = false
        for exchange in exchanges.values where !exchange.outgoing.isEmpty {
            if h2.sendableBytes(on: exchange.id) > 0 { return false }
            waiting = true
        }
        return waiting
    }

    private func armStallTimer(at deadline: UInt64, on connection: StreamConnection) {
        connection.loop.schedule(at: deadline) { [weak self, weak connection] in
            guard let self, let connection, !connection.isClosed, case .running = self.state, self.stallWatch != nil else { return }
            switch self.stallWatch!.timerFired(now: MonotonicClock.now()) {
            case .wait: break
            case .arm(let next): self.armStallTimer(at: next, on: connection)
            case .expired(let error): self.defend(error, on: connection)
            }
        }
    }

    /// Sends GOAWAY's consequences: no stream goes on, and the connection closes once its output is written.
    private func closeConnection(_ reason: Transcript.CloseReason, on connection: StreamConnection) {
        state = .closing(reason)
        for exchange in exchanges.values {
            let cancel = exchange.changeState { $0.reset() }
            cancel?()
            discardQueued(exchange, on: connection)
        }
        exchanges = [:]
        heldRequestBytes = 0
        flush(on: connection)
        // After GOAWAY the client may still be sending (WINDOW_UPDATEs, a request): the connection
        // lingers for its end, so that no RST destroys the GOAWAY or a response it has not read.
        connection.finishAfterOutputLingering(reason)
    }

    private func end(_ id: UInt32, on connection: StreamConnection) {
        guard let exchange = exchanges.removeValue(forKey: id) else { return }
        releaseBody(exchange)
        let cancel = exchange.changeState { $0.reset() }
        cancel?()
        discardQueued(exchange, on: connection)
    }

    /// Hands what was decided to the connection at the end of a turn; then, while streams wait for
    /// room in the connection's output and it has some (the socket took what was queued), they go on.
    private func flush(on connection: StreamConnection) {
        handOver(on: connection)
        while blockedOnRoom, case .running = state, !connection.isClosed, connection.hasOutputRoom {
            blockedOnRoom = false
            sendWaiting(on: connection)
            handOver(on: connection)
        }
        // After the turn's sends, which may have spent the last of a window.
        if stallWatch != nil { watchWindows(on: connection) }
    }

    /// Hands the frames decided so far to the connection, which writes what the socket takes now.
    private func handOver(on connection: StreamConnection) {
        guard !pending.isEmpty, !connection.isClosed else { return }
        let bytes = pending
        pending = []
        connection.sendNow(bytes)
    }

    // MARK: Requests

    /// Answers a stream whose body passed ``maximumRequestBodySize``, or made the bodies the
    /// connection holds together pass it, with `413 Content Too Large` (naming the setting, as
    /// HTTP/1.1's does); what it still sends is read and dropped.
    private func refuseBody(_ exchange: HTTP2StreamExchange, on connection: StreamConnection, error: FramingError) {
        connection.log(.warning, "HTTP/2 stream \(exchange.id): \(error); answered 413")
        releaseBody(exchange)
        do {
            // The head alone: a content-length the dropped body does not match is not a second fault.
            exchange.request = try HTTP2RequestHead.request(fields: exchange.fields, body: [], streamID: exchange.id, withoutBody: true)
        } catch {
            return streamError(error, on: connection)
        }
        reply(HTTPReply(HTTPMalformedRequest.response(for: error)), to: exchange, on: connection)
    }

    /// Resets a stream answered as it streams whose bytes would make the request bodies the
    /// connection holds pass ``maximumRequestBodySize`` (`ENHANCE_YOUR_CALM`, which gRPC clients
    /// report as `RESOURCE_EXHAUSTED`): its answer has replied already, so no 413 can go.
    private func refuseStreamedBody(_ exchange: HTTP2StreamExchange, on connection: StreamConnection) {
        let error = FramingError.heldBodiesTooLong(limit: maximumRequestBodySize)
        connection.log(.warning, "HTTP/2 stream \(exchange.id): \(error) (MockServer.Configuration.maximumRequestBodySize, mockserver --max-request-body); stream reset")
        HTTP2FrameWriter.write(h2.fail(HTTP2Error(.enhanceYourCalm, stream: exchange.id, "\(error)")), into: &pending)
        end(exchange.id, on: connection)
    }

    /// Gives back what `exchange` held of request bodies (its body, or what its streaming answer
    /// held), once it is refused or gone.
    private func releaseBody(_ exchange: HTTP2StreamExchange) {
        heldRequestBytes -= exchange.heldBytes
        exchange.body = []
        exchange.heldBytes = 0
    }

    /// Counts what `answer`, which takes `exchange`'s body as it streams, holds of it now (nothing
    /// once it finished), after it was given bytes or the body's end.
    private func countHeld(by answer: any HTTPStreamingAnswer, of exchange: HTTP2StreamExchange) {
        guard exchanges[exchange.id] === exchange else { return }
        let held = answer.isFinished ? 0 : answer.heldByteCount
        heldRequestBytes += held - exchange.heldBytes
        exchange.heldBytes = held
    }

    private func requestComplete(_ exchange: HTTP2StreamExchange, on connection: StreamConnection) {
        guard exchange.state.isReceiving else { return }
        let request: HTTPMockRequest
        do {
            request = try HTTP2RequestHead.request(fields: exchange.fields, body: exchange.body, streamID: exchange.id)
        } catch {
            return streamError(error, on: connection)
        }
        answer(request, on: exchange, connection: connection)
    }

    /// The most steps a streaming answer may have waiting behind a pause or a full queue: a client
    /// that sends faster than its answers go (or than it reads them) has its stream reset
    /// (`ENHANCE_YOUR_CALM`), so that no peer decides how much the server holds.
    static let laterStepsLimit = 4096

    /// Gives a request whose body is still to come to `streaming`'s answer, when it gives one: the
    /// stream replies at once, and its body's bytes go to the answer as they arrive (``feed(_:_:on:)``).
    private func startStreaming(_ exchange: HTTP2StreamExchange, with streaming: any HTTPStreamingResponder, on connection: StreamConnection) {
        // A head that cannot be read without its body (a content-length, say) is read, and refused,
        // with it, when it is complete.
        guard let path = exchange.fields.first(where: { $0.name == HTTP2RequestHead.pathName }).map({ String(decoding: $0.value, as: UTF8.self) }),
              streaming.mayAnswerAsItStreams(path: path),
              let head = try? HTTP2RequestHead.request(fields: exchange.fields, body: [], streamID: exchange.id) else { return }
        guard let answer = streaming.streamingAnswer(to: head, context: context(connection)) else { return }
        exchange.request = head
        exchange.streamingAnswer = answer
        guard exchange.changeState({ $0.beginReply() }) else { return }
        connection.record(.input(head.input, response: answer.name), exchange: exchange.transcriptExchange)
        connection.log(.trace, "<- HTTP/2 stream \(exchange.id): \(head.input) [\(answer.name ?? "")], answered as it streams")
        _ = exchange.changeState { $0.awaitInput() }
    }

    /// Runs the steps a streaming answer gave: now when the stream waits for them, after the running
    /// ones otherwise (at most ``laterStepsLimit``); a stream past its steps drops them.
    private func feed(_ exchange: HTTP2StreamExchange, _ steps: [ReplyStep<HTTPReplyOutput>], on connection: StreamConnection) {
        guard !steps.isEmpty else { return }
        if exchange.changeState({ $0.inputArrived() }) {
            exchange.steps = ReplyInterpreter(steps)
            run(exchange, on: connection)
        } else if exchange.state.isReplying {
            guard exchange.laterSteps.count + steps.count <= Self.laterStepsLimit else {
                connection.log(.warning, "HTTP/2 stream \(exchange.id): the client sent faster than its answers went (\(Self.laterStepsLimit) steps waiting); stream reset")
                HTTP2FrameWriter.write(h2.fail(HTTP2Error(.enhanceYourCalm, stream: exchange.id, "answers waiting")), into: &pending)
                return end(exchange.id, on: connection)
            }
            exchange.laterSteps += steps
        }
    }

    /// What every stream of the connection tells its responder, made at the first stream: one value
    /// shared by them all, not one made (and allocated) for each.
    private var requestContext: HTTPRequestContext?

    private func context(_ connection: StreamConnection) -> HTTPRequestContext {
        if let requestContext { return requestContext }
        let made = HTTPRequestContext(on: connection, states: states, isHTTP2: true)
        requestContext = made
        return made
    }

    /// Asks the responder for a stream's answer, and runs the reply at once or when it is computed.
    private func answer(_ request: HTTPMockRequest, on exchange: HTTP2StreamExchange, connection: StreamConnection) {
        exchange.request = request
        exchange.isHead = request.method == "HEAD"
        // The request holds the body now: it counts until the stream ends.
        exchange.body = []
        switch HTTPAnswering.start(responder(), request, context: context(connection), on: connection) {
        case .reply(let reply):
            self.reply(reply, to: exchange, on: connection)
        case .unmatched:
            unmatched(exchange, on: connection)
        case .later(let later):
            exchange.changeState { $0.answerLater() }
            let computing = HTTPAnswering.compute(later, on: connection) { [weak self, weak exchange, weak connection] reply in
                guard let self, let exchange, let connection else { return }
                self.answered(reply, exchange: exchange, on: connection)
            }
            switch computing {
            case .done(let reply): answered(reply, exchange: exchange, on: connection)
            case .waiting(let cancel): exchange.changeState { $0.answerWaits(cancel: cancel) }
            }
        }
    }

    /// A stream's computed answer (`nil`: nothing answers), on the loop.
    private func answered(_ answer: HTTPReply?, exchange: HTTP2StreamExchange, on connection: StreamConnection) {
        guard exchange.state.isAnswering, !connection.isClosed else { return }
        if let answer { reply(answer, to: exchange, on: connection) } else { unmatched(exchange, on: connection) }
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

    // MARK: Replies

    private func reply(_ reply: HTTPReply, to exchange: HTTP2StreamExchange, on connection: StreamConnection) {
        guard let request = exchange.request, exchange.changeState({ $0.beginReply() }) else { return }
        if reply.isUnexpected {
            connection.record(.unmatched(request.input), exchange: exchange.transcriptExchange)
        } else {
            connection.record(.input(request.input, response: reply.name), exchange: exchange.transcriptExchange)
        }
        for note in Transcript.Note.grpcMessages(of: request, responder: responder()) { connection.record(.note(note)) }
        connection.log(.trace, "<- HTTP/2 stream \(exchange.id): \(request.input) [\(reply.name ?? "")]")
        exchange.steps = ReplyInterpreter(reply.steps)
        run(exchange, on: connection)
    }

    /// Runs a stream's steps until one waits or they are all done; they also wait while the stream
    /// has ``streamQueueLimit`` bytes queued, and go on once half of that is left (``sendAndResume(_:on:atMost:)``).
    private func run(_ exchange: HTTP2StreamExchange, on connection: StreamConnection) {
        while exchange.state.stepsRun, case .running = state {
            if exchange.outgoing.count >= Self.streamQueueLimit, exchange.changeState({ $0.queueFull() }) {
                sendQueued(exchange, on: connection)
                guard exchange.state.isDraining, exchange.outgoing.count <= Self.streamQueueLimit / 2 else { return }
                _ = exchange.changeState { $0.queueDrained() }
            }
            let action = exchange.steps.next()
            if case .end = action {
                guard let answer = exchange.streamingAnswer else { break }
                if !exchange.laterSteps.isEmpty {
                    // A streaming answer's steps given while these ran: they are next.
                    exchange.steps = ReplyInterpreter(exchange.laterSteps)
                    exchange.laterSteps = []
                    continue
                }
                guard answer.isFinished || !exchange.changeState({ $0.awaitInput() }) else {
                    // The answer goes on as the request's body arrives: what the steps queued goes now.
                    sendQueued(exchange, on: connection)
                    return
                }
                break
            }
            perform(action, on: exchange, connection: connection)
        }
        guard exchange.state.stepsRun, case .running = state else { return }
        endSteps(exchange, then: .streamEnds, on: connection)
    }

    /// Carries out one of the interpreter's actions on a stream: the stream's meaning of each.
    private func perform(_ action: ReplyAction<HTTPReplyOutput>, on exchange: HTTP2StreamExchange, connection: StreamConnection) {
        switch action {
        case .send(let bytes):
            let method = exchange.request?.method ?? "GET", isHead = exchange.isHead
            switch exchange.changeState({ $0.send(bytes, method: method, isHead: isHead) }) {
            case .raw(let events):
                rawEvents(events, on: exchange, connection: connection)
            case .notAResponse(let error):
                connection.log(.warning, "HTTP/2 stream \(exchange.id): bytes sent are not an HTTP/1.1 response (\(error)); not sent")
            case .queue(let body, let trailers):
                exchange.outgoing.append(body)
                // A streamed body's trailer section (a gRPC answer's status) closes the stream as HEADERS.
                if let trailers, exchange.trailers.fields.isEmpty { exchange.trailers = trailers }
                sendQueued(exchange, on: connection)
            case .drop:
                break
            }
        case .pause(let duration):
            connection.record(.paused(duration))
            guard exchange.changeState({ $0.pause() }) else { return }
            sendQueued(exchange, on: connection)
            connection.loop.schedule(after: duration) { [weak self, weak connection] in
                guard let self, let connection, !connection.isClosed, exchange.changeState({ $0.pauseEnded() }) else { return }
                self.run(exchange, on: connection)
                self.flush(on: connection)
            }
        case .close:
            // The stream ends with what was sent, all of it, as the windows let it go; then the
            // connection closes (GOAWAY first).
            endSteps(exchange, then: .connectionCloses, on: connection)
        case .fault(.hang):
            exchange.changeState { $0.hang() }
            sendQueued(exchange, on: connection)
        case .fault(let fault):
            // The connection's faults act on the connection: every stream ends with it.
            connection.log(.debug, "HTTP/2 stream \(exchange.id): fault \(fault) on the connection")
            sendQueued(exchange, on: connection, whileReplying: true)
            handOver(on: connection)
            _ = exchange.changeState { $0.reset() }
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
            end(exchange.id, on: connection)
        case .end:
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
            end(exchange.id, on: connection)
        case .goaway(let name):
            let code = HTTP2ErrorCode(name: name) ?? .internalError
            sendQueued(exchange, on: connection, whileReplying: true)
            let last = exchange.id > 2 ? exchange.id - 2 : 0
            HTTP2FrameWriter.write(HTTP2Frame(streamID: 0, .goAway(lastStreamID: last, code: code, debugData: Array("GOAWAY on demand".utf8))), into: &pending)
            closeConnection(.script, on: connection)
        case .stall:
            // As if the client's window were zero: what the steps sent before the fault goes (a gRPC
            // stream's messages), then the head (unless it went); the body never does.
            sendQueued(exchange, on: connection, whileReplying: true)
            if exchange.changeState({ $0.stall() }) == .sendHead,
               let frames = try? h2.sendHeaders([HPACKHeader(":status", "200")], on: exchange.id, endStream: false) {
                for frame in frames { HTTP2FrameWriter.write(frame, into: &pending) }
            }
            discardQueued(exchange, on: connection)
        case .badHPACK:
            // RFC 7541 §6.1: index 0 is not a field; a decoder must fail with COMPRESSION_ERROR.
            exchange.changeState { $0.hang() }
            HTTP2FrameWriter.write(HTTP2Frame(streamID: exchange.id, .headers(block: [0x80], endStream: false, endHeaders: true)), into: &pending)
            discardQueued(exchange, on: connection)
        case .illegalFrame:
            // RFC 9113 §6.5: SETTINGS on a stream other than 0 is a connection error, PROTOCOL_ERROR.
            // (Chosen over DATA on stream 0, which grpcio ignores.)
            exchange.changeState { $0.hang() }
            HTTP2FrameWriter.write(HTTP2Frame(streamID: exchange.id, .settings([], ack: false)), into: &pending)
            discardQueued(exchange, on: connection)
        }
    }

    /// What a raw HTTP/1.1 response's bytes gave: its head as HEADERS, its body as DATA.
    private func rawEvents(_ events: [HTTPResponseParser.Event], on exchange: HTTP2StreamExchange, connection: StreamConnection) {
        for event in events {
            switch event {
            case .head(let head):
                sendHead(HTTPMockResponse(status: head.status, reason: head.reason, headers: head.headers), on: exchange, connection: connection, raw: true)
            case .body(let bytes):
                if !exchange.isHead { exchange.outgoing.append(bytes) }
            case .end:
                break
            }
        }
        sendQueued(exchange, on: connection)
    }

    /// The steps' end (all run, or a «close», `after`): a raw response's bytes end (a body its close
    /// delimits is complete), a streamed body's unfinished chunk goes as it is, and what is queued
    /// goes, then the stream's end.
    private func endSteps(_ exchange: HTTP2StreamExchange, then after: HTTP2ExchangeState.After, on connection: StreamConnection) {
        let events = exchange.changeState { $0.finishRaw() }
        if !events.isEmpty { rawEvents(events, on: exchange, connection: connection) }
        let rest = exchange.changeState { $0.stepsEnded(then: after) }
        if !rest.isEmpty { exchange.outgoing.append(rest) }
        sendQueued(exchange, on: connection)
    }

    /// A response's HEADERS frame, and its body queued as DATA; a `raw` one (read from HTTP/1.1
    /// bytes) keeps its own length, and its body comes decoded.
    private func sendHead(_ response: HTTPMockResponse, on exchange: HTTP2StreamExchange, connection: StreamConnection, raw: Bool = false) {
        let chunked = !raw && response.headers.hasToken("chunked", in: "Transfer-Encoding")
        let sendsBody = !exchange.isHead && !response.isBodiless
        // A response with nothing after its head (a gRPC trailers-only error, a HEAD's answer, an
        // empty body as the last step) ends the stream on its HEADERS frame, as gRPC clients require.
        let nothingFollows = (!sendsBody || response.body.isEmpty) && exchange.outgoing.isEmpty
            && response.trailers.fields.isEmpty && exchange.steps.isAtEnd
            && exchange.laterSteps.isEmpty && exchange.streamingAnswer?.isFinished ?? true
        let endsHere: Bool
        switch exchange.changeState({ $0.head(raw: raw, chunked: chunked, nothingFollows: nothingFollows) }) {
        case .drop:
            connection.log(.warning, "HTTP/2 stream \(exchange.id): a second response on the stream is not sent")
            return
        case .send: endsHere = false
        case .sendEndingStream: endsHere = true
        }
        let streamed = raw || chunked
        var fields: [HPACKHeader] = []
        fields.reserveCapacity(response.headers.count + 2)
        fields.append(HPACKHeader(name: HTTP2RequestHead.statusName, value: Array(String(response.status).utf8)))
        for field in response.headers {
            let name = HTTP2RequestHead.lowercasedName(field.name)
            if !HTTP2RequestHead.connectionSpecific.contains(name) { fields.append(HPACKHeader(name: name, value: Array(field.value.utf8))) }
        }
        // gRPC's answers carry no content-length, as gRPC's servers send them: in a trailers-only
        // error the client would read it as trailing metadata.
        if !streamed, !response.headers.contains("Content-Length"), !response.isBodiless,
           response.headers["Content-Type"]?.hasPrefixIgnoringASCIICase(lowercased: "application/grpc") != true {
            fields.append(HPACKHeader("content-length", String(response.body.count)))
        }
        exchange.trailers = response.trailers
        do {
            for frame in try h2.sendHeaders(fields, on: exchange.id, endStream: endsHere) { HTTP2FrameWriter.write(frame, into: &pending) }
        } catch {
            connection.log(.warning, "HTTP/2 \(error)")
            return
        }
        var head = Array("HTTP/2 ".utf8)
        head += fields[0].value
        head += [0x0D, 0x0A]
        recordOutput(Self.fieldLines(fields.dropFirst(), after: head), on: exchange, connection: connection)
        if endsHere {
            ended(exchange, on: connection)
            return
        }
        if sendsBody { exchange.outgoing.append(response.body) }
        sendQueued(exchange, on: connection)
    }

    /// Sends what the windows and the connection's output allow of a stream's queued bytes (at most
    /// `limit` of them), and ends the stream when its steps are done and nothing is left (with its
    /// trailers, if any). While the steps run, the bytes wait (unless `whileReplying`) for them to
    /// stop at a pause, a hang or the end, so that a response's last DATA frame carries END_STREAM
    /// instead of an empty frame after it; while they wait for the queue (``HTTP2ExchangeState/Stepping/draining``),
    /// only what brings it down to half of ``streamQueueLimit`` goes, for the same reason.
    ///
    /// - Returns: how many bytes went.
    @discardableResult
    private func sendQueued(_ exchange: HTTP2StreamExchange, on connection: StreamConnection, whileReplying: Bool = false,
                            atMost limit: Int = .max) -> Int {
        guard case .running = state, exchanges[exchange.id] === exchange, !connection.isClosed else { return 0 }
        var limit = limit
        let ending: Bool
        switch exchange.state.sendPlan(whileReplying: whileReplying) {
        case .wait:
            return 0
        case .drain:
            limit = min(limit, exchange.outgoing.count - Self.streamQueueLimit / 2)
            ending = false
        case .headFirst:
            // Steps that sent no response: the stream still needs a head.
            sendHead(HTTPMockResponse(status: 200), on: exchange, connection: connection)
            return 0
        case .send(let end):
            ending = end
        }
        let endsWithData = ending && exchange.trailers.fields.isEmpty
        var sent = 0
        if !exchange.outgoing.isEmpty {
            sent = sendOutgoing(exchange, endStream: endsWithData, atMost: limit, on: connection)
        } else if endsWithData {
            _ = h2.sendData([][...], on: exchange.id, endStream: true, into: &pending)
        }
        guard ending, exchange.outgoing.isEmpty, exchanges[exchange.id] === exchange else { return sent }
        if !exchange.trailers.fields.isEmpty {
            let fields = exchange.trailers.map { HPACKHeader(name: HTTP2RequestHead.lowercasedName($0.name), value: Array($0.value.utf8)) }
            if let frames = try? h2.sendHeaders(fields, on: exchange.id, endStream: true) {
                for frame in frames { HTTP2FrameWriter.write(frame, into: &pending) }
                recordOutput(Self.fieldLines(fields[...]), on: exchange, connection: connection)
            }
        }
        ended(exchange, on: connection)
        return sent
    }

    /// Frames a stream's queued bytes as DATA (at most `limit`), as far as its windows allow and
    /// while the connection's output has room; END_STREAM goes on the last byte when `endStream`.
    /// A piece that has all gone is recorded in the transcript (the piece itself, not a copy).
    private func sendOutgoing(_ exchange: HTTP2StreamExchange, endStream: Bool, atMost limit: Int, on connection: StreamConnection) -> Int {
        var sent = 0
        while !exchange.outgoing.isEmpty, sent < limit {
            if pending.count >= Self.handOverSize {
                handOver(on: connection)
                if connection.isClosed { break }
            }
            guard connection.hasOutputRoom else {
                if h2.sendableBytes(on: exchange.id) > 0 { blockedOnRoom = true }
                break
            }
            let most = min(limit - sent, Self.handOverSize)
            let bytes = exchange.outgoing.next(atMost: most)
            let count = h2.sendData(bytes, on: exchange.id, endStream: endStream && exchange.outgoing.isLast(atMost: most), into: &pending)
            guard count > 0 else { break }
            sent += count
            exchange.outgoing.removeFirst(count) { recordOutput($0, on: exchange, connection: connection) }
        }
        return sent
    }

    /// Sends what a stream has queued (at most `limit`), and runs its steps again if they waited
    /// for its queue and half of ``streamQueueLimit`` or less is left.
    @discardableResult
    private func sendAndResume(_ exchange: HTTP2StreamExchange, on connection: StreamConnection, atMost limit: Int = .max) -> Int {
        let sent = sendQueued(exchange, on: connection, atMost: limit)
        if exchange.outgoing.count <= Self.streamQueueLimit / 2, exchanges[exchange.id] === exchange, exchange.changeState({ $0.queueDrained() }) {
            run(exchange, on: connection)
        }
        return sent
    }

    /// Sends what the streams have queued, a ``fairShare`` each in turn (in stream order, starting
    /// after the one that sent last), until the windows or the connection's output stop them all.
    private func sendWaiting(on connection: StreamConnection) {
        let ids = exchanges.compactMap { $0.value.outgoing.isEmpty ? nil : $0.key }.sorted()
        guard !ids.isEmpty else { return }
        var progressed = true
        while progressed, case .running = state, !connection.isClosed {
            progressed = false
            let start = ids.firstIndex { $0 > lastServed } ?? 0
            for turn in ids.indices {
                let id = ids[(start + turn) % ids.count]
                guard let exchange = exchanges[id] else { continue }
                if sendAndResume(exchange, on: connection, atMost: Self.fairShare) > 0 {
                    progressed = true
                    lastServed = id
                }
                if blockedOnRoom || connection.isClosed { return }
            }
        }
    }

    /// Drops what a stream has queued (it was reset, stalled, or its connection ended); the part of
    /// a piece that went already is recorded in the transcript.
    private func discardQueued(_ exchange: HTTP2StreamExchange, on connection: StreamConnection) {
        if let gone = exchange.outgoing.removeAll() { recordOutput(Array(gone), on: exchange, connection: connection) }
    }

    /// A stream whose end went: it is over, and after a «close» so is the connection (GOAWAY first).
    private func ended(_ exchange: HTTP2StreamExchange, on connection: StreamConnection) {
        exchanges[exchange.id] = nil
        releaseBody(exchange)
        guard exchange.changeState({ $0.streamEnded() }) == .closeConnection else { return }
        HTTP2FrameWriter.write(HTTP2Frame(streamID: 0, .goAway(lastStreamID: h2.lastPeerStreamID, code: .noError, debugData: [])), into: &pending)
        closeConnection(.script, on: connection)
    }

    // MARK: Transcript

    /// Records what a stream sent as its request's exchange's output, readable as HTTP/1.1's is: the
    /// head (`HTTP/2 200` and its fields), the body's bytes as they went, the trailers' fields.
    private func recordOutput(_ bytes: [UInt8], on exchange: HTTP2StreamExchange, connection: StreamConnection) {
        connection.record(.output(bytes), exchange: exchange.transcriptExchange)
    }

    /// `start`, then fields as `name: value` lines, then the empty line.
    private static func fieldLines(_ fields: ArraySlice<HPACKHeader>, after start: [UInt8] = []) -> [UInt8] {
        // Bytes appended to one buffer, not a String a field (10,000 instructions a gRPC answer's
        // head and trailers: BENCHMARKS.md, session 32).
        var lines = start
        lines.reserveCapacity(fields.reduce(start.count + 2) { $0 + $1.name.count + $1.value.count + 4 })
        for field in fields {
            lines.append(contentsOf: field.name)
            lines.append(0x3A)
            lines.append(0x20)
            lines.append(contentsOf: field.value)
            lines.append(0x0D)
            lines.append(0x0A)
        }
        lines.append(0x0D)
        lines.append(0x0A)
        return lines
    }
}
