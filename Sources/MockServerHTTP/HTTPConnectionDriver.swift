@_spi(HotPath) import MockServerCore

/// HTTP/1.x on one connection: parses requests, asks an ``HTTPMockResponder``, and turns each reply
/// into the connection's steps, with `Expect: 100-continue` and persistence handled here.
package final class HTTPConnectionDriver: StreamDriver, ReplyPerformer {
    /// Where the exchange on this connection stands.
    private enum State {
        /// Reading the next request (or the body of one whose head was answered with `100 Continue`).
        case awaitingRequest
        /// A reply to a waiting request head is running; its ``HTTPReplyOutput/continueRequest``
        /// lets the body come.
        case answeringHead
        /// A request head was answered without letting its body come, or bytes that are not a
        /// request were refused: what the client still sends is dropped, and the connection closes
        /// for the reason when the client closes.
        case discarding(Transcript.CloseReason)
        /// The responder computes the answer (in a task, or on the loop for an
        /// ``HTTPLoopResponder``); `cancel` ends that work when the client goes away.
        case waiting(cancel: () -> Void)
        /// A reply switched the connection to another protocol (``HTTPReplyOutput/upgrade(_:)``), whose
        /// driver now gets its bytes.
        case upgraded(any StreamDriver)
    }

    // The parser, the state and the exchange are used at every request, on the loop's thread
    // alone and never through overlapping accesses: no dynamic exclusivity checks (this driver's
    // six annotated fields take five checks an answer without them, about 100 instructions each).
    // callgrind http 500 2500: 21,250 vs 24,017 instructions an answer with every hot-path @exclusivity(unchecked) off.
    @exclusivity(unchecked) private var parser = HTTPRequestParser()

    /// The body limit and head timeout the server gives its connections, set before the connection
    /// opens; `nil` (a connection made outside a server's listeners) keeps the parser's own limits
    /// and no head timeout.
    package var requestLimits: HTTPRequestLimits? {
        didSet { parser = HTTPRequestParser(maximumBodyLength: requestLimits?.maximumBodyLength ?? HTTPRequestParser().maximumBodyLength) }
    }

    /// The request head under way and how far its timeout has got: see ``watchHead(on:)``.
    private var headWatch = HeadWatch()

    /// The head a timeout watches: which request it is (counted by ``HeadWatch/completed``), when
    /// its first bytes were seen, and whether a check is scheduled.
    private struct HeadWatch {
        /// How many requests have been taken whole from the parser.
        var completed = 0
        /// The request (its number in `completed`) whose head is under way, and when it was first seen.
        var pending: (request: Int, since: UInt64)?
        /// Whether a timer is scheduled (one at a time per connection).
        var armed = false
    }
    // callgrind http 500 2500: 21,250 vs 24,017 instructions an answer with every hot-path @exclusivity(unchecked) off.
    @exclusivity(unchecked) private var state = State.awaitingRequest
    private let responder: @Sendable () -> any HTTPMockResponder
    /// What the layers above keep for this connection (a script's storage), across its requests.
    private let states = ConnectionStates()

    /// The request whose reply the connection is carrying out (`nil` for an answer to a request
    /// head) and how that reply ends (`nil` for a head's): the connection takes no input until a
    /// reply's steps have all run, so what a `then` works out later belongs to the same exchange.
    // callgrind http 500 2500: 21,250 vs 24,017 instructions an answer with every hot-path @exclusivity(unchecked) off.
    @exclusivity(unchecked) private var exchange: (request: HTTPMockRequest?, end: ReplyEnd?) = (nil, nil)

    /// What the responder already said about the connection's first request, asked before the
    /// connection existed (an in-process client that tried to answer at once); used in place of
    /// asking again, so that nothing a responder counts happens twice.
    /// Out of line (a box only when given, by an in-process client): most connections have none.
    private var firstAnswer: FirstAnswer?

    /// An ``HTTPReply/Immediate`` held out of line.
    private indirect enum FirstAnswer {
        case given(HTTPReply.Immediate)
    }

    /// Another protocol that may take the connection over before its first request, when the
    /// client's first bytes are its preface (HTTP/2's, for h2c with prior knowledge).
    /// Both are read at every request, on the loop's thread alone and never through overlapping
    /// accesses: no dynamic exclusivity checks (a thread-local lookup each).
    // callgrind http 500 2500: 21,250 vs 24,017 instructions an answer with every hot-path @exclusivity(unchecked) off.
    @exclusivity(unchecked) package var handOver: HTTPHandOver?
    /// Whether the connection's first bytes were found not to be ``handOver``'s preface.
    // callgrind http 500 2500: 21,250 vs 24,017 instructions an answer with every hot-path @exclusivity(unchecked) off.
    @exclusivity(unchecked) private var prefaceRuledOut = false

    /// Creates the driver of one connection; `responder` is asked for the current responder at
    /// each request, except for the first when `firstAnswer` is given.
    package init(responder: @escaping @Sendable () -> any HTTPMockResponder, firstAnswer: HTTPReply.Immediate? = nil) {
        self.responder = responder
        self.firstAnswer = firstAnswer.map { .given($0) }
    }

    package func opened(_ connection: StreamConnection) -> [StreamStep] { [] }

    package func received(_ bytes: UnsafeRawBufferPointer, on connection: StreamConnection) {
        switch state {
        case .discarding: return
        case .upgraded(let driver): driver.received(bytes, on: connection)
        case .awaitingRequest, .answeringHead, .waiting: parser.append(bytes)
        }
    }

    package func next(on connection: StreamConnection, inputEnded: Bool) -> DriverDecision {
        switch state {
        case .discarding(let reason):
            return inputEnded ? .finish(reason) : .needInput
        case .answeringHead:
            state = .discarding(.script)
            connection.log(.debug, "request head answered without «continue»: discarding input until the client closes")
            return .steps([.fault(.halfClose)])
        case .waiting:
            return .wait
        case .upgraded(let driver):
            return driver.next(on: connection, inputEnded: inputEnded)
        case .awaitingRequest:
            // The last reply's steps have all run: its request (an upload's body, perhaps) is not
            // kept while the connection waits for the next.
            exchange = (nil, nil)
        }
        if !prefaceRuledOut, let handOver {
            let buffered = parser.bufferedBytes
            let count = min(buffered.count, handOver.preface.count)
            if buffered.prefix(count).elementsEqual(handOver.preface.prefix(count)) {
                // The preface, or the start of it: the other protocol's connection.
                guard count == handOver.preface.count else { return inputEnded ? .finish(.peerClosed) : .needInput }
                return hand(to: handOver, on: connection, inputEnded: inputEnded)
            }
            prefaceRuledOut = true
            if handOver.isRequired { return refuseForRequired(handOver, on: connection) }
        }
        let request: HTTPMockRequest?
        do {
            request = inputEnded ? try parser.finish() : try parser.next()
        } catch {
            // A request cut short by the end of the input gets no answer: the client is gone.
            if inputEnded {
                connection.log(.warning, "\(error); closing")
                return .finish(error.closeReason)
            }
            return refuse(error, on: connection)
        }
        guard let request else {
            if inputEnded { return .finish(.peerClosed) }
            if let head = parser.takeHeadAwaitingContinue() { return answer(head: head, on: connection) }
            if let timeout = requestLimits?.headTimeout, parser.isAwaitingHead { watchHead(timeout, on: connection) }
            return .needInput
        }
        headWatch.completed &+= 1
        return answer(request, on: connection)
    }

    /// Notes when the head under way began, and schedules a check at its deadline unless one is
    /// scheduled: a head that arrives whole in one read (nearly all) never gets here.
    private func watchHead(_ timeout: Duration, on connection: StreamConnection) {
        if headWatch.pending?.request != headWatch.completed { headWatch.pending = (headWatch.completed, MonotonicClock.now()) }
        guard !headWatch.armed, let since = headWatch.pending?.since else { return }
        headWatch.armed = true
        connection.loop.schedule(at: since &+ MonotonicClock.nanoseconds(timeout)) { [weak self, weak connection] in
            guard let self, let connection else { return }
            self.headDeadline(timeout, on: connection)
        }
    }

    /// A head's deadline: the head still under way since then is answered `408 Request Timeout`
    /// and the connection closes (as nginx's `client_header_timeout` and Apache's `RequestReadTimeout`);
    /// a later head is watched from its own start.
    private func headDeadline(_ timeout: Duration, on connection: StreamConnection) {
        headWatch.armed = false
        guard !connection.isClosed, case .awaitingRequest = state, parser.isAwaitingHead,
              let pending = headWatch.pending, pending.request == headWatch.completed else { return }
        guard MonotonicClock.now() &- pending.since >= MonotonicClock.nanoseconds(timeout) else {
            watchHead(timeout, on: connection)
            return
        }
        let seconds = Double(MonotonicClock.nanoseconds(timeout)) / 1e9
        let shown = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
        let text = "the request head did not arrive within \(shown) s (requestHeadTimeout, --request-head-timeout)"
        let response = HTTPMockResponse(status: 408, reason: "Request Timeout",
                                        headers: ["Content-Type": "text/plain; charset=utf-8", "Connection": "close"],
                                        body: Array("MockServer: 408 Request Timeout: \(text)\n".utf8))
        connection.log(.warning, "\(text); answered 408 and closing")
        let reason = Transcript.CloseReason.malformedInput(text)
        state = .discarding(reason)
        connection.sendNow(HTTPResponseSerializer.serialize(response, for: nil).bytes)
        connection.finishAfterOutputLingering(reason)
    }

    /// Refuses a connection that is not `handOver`'s protocol when the server serves only that one.
    private func refuseForRequired(_ handOver: HTTPHandOver, on connection: StreamConnection) -> DriverDecision {
        let message = "MockServer serves only \(handOver.name) here: this connection did not start with its preface\n"
        let response = HTTPMockResponse(status: 505, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(message.utf8))
        let reason = Transcript.CloseReason.malformedInput("not \(handOver.name), which the server requires")
        connection.log(.warning, "a connection that is not \(handOver.name) refused with 505")
        state = .discarding(reason)
        return .steps(Self.refusal(HTTPResponseSerializer.serialize(response, for: nil).bytes, reason: reason, on: connection))
    }

    /// Answers an upgrade to `handOver`'s protocol with `101 Switching Protocols`; its driver then
    /// answers the request, and gets the bytes that follow.
    private func switchProtocols(to handOver: HTTPHandOver, token: String, for request: HTTPMockRequest, on connection: StreamConnection) -> DriverDecision {
        self.handOver = nil
        connection.record(.note(Transcript.Note(kind: "upgrade", text: "switching to \(handOver.name) (Upgrade: \(token))")))
        connection.log(.debug, "switching to \(handOver.name) (Upgrade: \(token))")
        connection.send(Array("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: \(token)\r\n\r\n".utf8))
        let driver = handOver.makeDriver(responder, request)
        state = .upgraded(driver)
        let opening = driver.opened(connection)
        let rest = parser.takeBuffered()
        if !rest.isEmpty { rest.withUnsafeBytes { driver.received($0, on: connection) } }
        return opening.isEmpty ? driver.next(on: connection, inputEnded: false) : .steps(opening)
    }

    /// Gives the connection to `handOver`'s driver, with the bytes read so far.
    private func hand(to handOver: HTTPHandOver, on connection: StreamConnection, inputEnded: Bool) -> DriverDecision {
        self.handOver = nil
        connection.log(.debug, "the connection starts as \(handOver.name): handed over")
        let driver = handOver.makeDriver(responder, nil)
        state = .upgraded(driver)
        let opening = driver.opened(connection)
        let rest = parser.takeBuffered()
        rest.withUnsafeBytes { driver.received($0, on: connection) }
        return opening.isEmpty ? driver.next(on: connection, inputEnded: inputEnded) : .steps(opening)
    }

    /// How long a refused client may go on sending after its answer before the connection closes
    /// anyway (nginx's `lingering_timeout` is 5 seconds too).
    package static let lingering = Duration.seconds(5)

    /// Bytes that are not a request: answered as nginx does (``HTTPMalformedRequest``), then the
    /// sending side is shut and what the client still sends is read and dropped until it closes, for
    /// at most ``lingering``, so that it reads the answer rather than a reset.
    private func refuse(_ error: FramingError, on connection: StreamConnection) -> DriverDecision {
        let response = HTTPMalformedRequest.response(for: error)
        connection.log(.warning, "\(error); answered \(response.status) and closing")
        // The transcript names the part that was too long, not only the limit.
        let reason: Transcript.CloseReason = if case .tooLong = error { .malformedInput(error.description) } else { error.closeReason }
        state = .discarding(reason)
        return .steps(Self.refusal(HTTPResponseSerializer.serialize(response, for: nil).bytes, reason: reason, on: connection))
    }

    /// The steps that refuse a client: `answer` is sent, the sending side shut, and the connection
    /// closed for `reason` when the client closes, or after ``lingering`` at most; the caller drops
    /// what the client still sends meanwhile. Every HTTP-speaking driver refuses this way.
    package static func refusal(_ answer: [UInt8], reason: Transcript.CloseReason, on connection: StreamConnection) -> [StreamStep] {
        [.send(answer), .fault(.halfClose), .whenWritten { [weak connection] in
            connection?.loop.schedule(after: lingering) { [weak connection] in
                guard let connection, !connection.isClosed else { return }
                connection.close(reason)
            }
        }]
    }

    /// The connection's output drained: a protocol the connection switched to, which may send
    /// outside its steps (HTTP/2's streams, a WebSocket handler's pushes), hears of it; HTTP/1.1's
    /// own output is paced by the connection's steps.
    package func outputDrained(on connection: StreamConnection) {
        if case .upgraded(let driver) = state { driver.outputDrained(on: connection) }
    }

    package func closed(_ connection: StreamConnection, reason: Transcript.CloseReason) {
        switch state {
        case .waiting(let cancel): cancel()
        case .upgraded(let driver): driver.closed(connection, reason: reason)
        case .awaitingRequest, .answeringHead, .discarding: break
        }
    }

    /// What every request of the connection tells its responder (its number, addresses, states),
    /// made at the first request: the addresses are asked of the transport once, and the context is
    /// not built again for each request.
    // callgrind http 500 2500: 21,250 vs 24,017 instructions an answer with every hot-path @exclusivity(unchecked) off.
    @exclusivity(unchecked) private var requestContext: HTTPRequestContext?

    private func context(_ connection: StreamConnection) -> HTTPRequestContext {
        if let requestContext { return requestContext }
        let made = HTTPRequestContext(on: connection, states: states)
        requestContext = made
        return made
    }

    private func answer(_ request: HTTPMockRequest, on connection: StreamConnection) -> DriverDecision {
        if let handOver, firstAnswer == nil, let token = handOver.upgradeToken, handOver.isUpgrade(request) {
            return switchProtocols(to: handOver, token: token, for: request, on: connection)
        }
        let given: HTTPReply.Immediate?
        if case .given(let answer)? = firstAnswer {
            firstAnswer = nil
            given = answer
        } else {
            given = nil
        }
        switch HTTPAnswering.start(responder(), request, context: context(connection), given: given, on: connection) {
        case .reply(let reply):
            return .steps(steps(for: reply, to: request, on: connection))
        case .unmatched:
            return unmatched(request, on: connection)
        case .later(let later):
            let computing = HTTPAnswering.compute(later, on: connection) { [unowned self, unowned connection] reply in
                self.deferredAnswer(reply, to: request, on: connection)
            }
            switch computing {
            case .done(let reply):
                return decision(for: reply, to: request, on: connection)
            case .waiting(let cancel):
                state = .waiting(cancel: cancel)
                return .wait
            }
        }
    }

    /// A computed answer, back on the loop (``HTTPAnswering/compute(_:on:deliver:)``).
    private func deferredAnswer(_ reply: HTTPReply?, to request: HTTPMockRequest, on connection: StreamConnection) {
        guard case .waiting = state, !connection.isClosed else { return }
        state = .awaitingRequest
        switch decision(for: reply, to: request, on: connection) {
        case .steps(let steps): connection.resume(with: steps)
        case .finish(let reason): connection.resume(with: [.close(reason)])
        case .needInput, .wait: connection.resume()
        }
    }

    /// What the connection does with a computed answer (`nil`: nothing answers).
    private func decision(for reply: HTTPReply?, to request: HTTPMockRequest, on connection: StreamConnection) -> DriverDecision {
        guard let reply else { return unmatched(request, on: connection) }
        return .steps(steps(for: reply, to: request, on: connection))
    }

    private func unmatched(_ request: HTTPMockRequest, on connection: StreamConnection) -> DriverDecision {
        connection.record(.unmatched(request.input))
        connection.log(.warning, "unmatched input: \(request.input)")
        return .finish(.unmatchedInput)
    }

    /// A client waits with a request head for `100 Continue`: the responder may answer the head;
    /// otherwise it gets `100 Continue` and the body comes.
    private func answer(head: HTTPMockRequest, on connection: StreamConnection) -> DriverDecision {
        guard let reply = responder().answerHead(head, context: context(connection)) else {
            return .steps([.send(HTTPResponseSerializer.continueResponse)])
        }
        connection.recordInput(head.input, response: reply.name)
        connection.log(.trace, "<- \(head.input) [\(reply.name ?? "")]")
        state = .answeringHead
        return .steps(carryOut(reply.steps, request: nil, end: nil, on: connection))
    }

    /// How a reply ends: whether the connection stays open after it, and whether the reply itself
    /// closes or fails on purpose (then it decides how the connection ends). Shared by the parts of
    /// a reply that a ``MockServerCore/ReplyStep/then(_:)`` works out later.
    private final class ReplyEnd {
        var keepAlive: Bool
        var scripted = false
        /// The reply changes the connection's network conditions: the earlier ones come back at its end.
        var changesConditions = false
        /// Once the reply's conditions are in force, those the connection had before them (`.some(nil)`:
        /// none); `nil` while none of the reply's were drawn.
        var replacedConditions: NetworkConditions??

        init(keepAlive: Bool) {
            self.keepAlive = keepAlive
        }
    }

    /// The connection's steps for `reply`, recorded as the answer to `request`; the connection
    /// closes afterwards when the request or a response says so.
    private func steps(for reply: HTTPReply, to request: HTTPMockRequest, on connection: StreamConnection) -> [StreamStep] {
        if reply.isUnexpected {
            connection.record(.unmatched(request.input))
            connection.log(.warning, "unexpected request: \(request.input)")
        } else {
            connection.recordInput(request.input, response: reply.name)
            connection.log(.trace, "<- \(request.input) [\(reply.name ?? "")]")
        }
        for note in Transcript.Note.grpcMessages(of: request, responder: responder()) { connection.record(.note(note)) }
        if request.wantsKeepAlive, let prepared = reply.preparedStreamSteps {
            // Worked out when the script was loaded, and nothing to add: the connection stays open
            // and nothing in them reads the exchange (no output, conditions or `then`). Shared, not
            // converted again: no interpreter, step list or ``ReplyEnd`` for this request.
            return prepared
        }
        return carryOut(reply.steps, request: request, end: ReplyEnd(keepAlive: request.wantsKeepAlive), on: connection)
    }

    /// The connection's steps for reply steps, as Core's interpreter reads them
    /// (``MockServerCore/ReplyInterpreter``, converted by this driver's ``MockServerCore/ReplyPerformer``
    /// functions), then how the reply ends; `end` is `nil` for an answer to a request head.
    private func carryOut(_ replySteps: [ReplyStep<HTTPReplyOutput>], request: HTTPMockRequest?, end: ReplyEnd?,
                          on connection: StreamConnection) -> [StreamStep] {
        exchange = (request, end)
        var interpreter = ReplyInterpreter(replySteps)
        // Converted here rather than by `streamSteps(for:on:)`, a member of a `package` protocol
        // that this module would run unspecialised (about 1,400 instructions a request).
        var steps = interpreter.convert(
            send: { sendStep($0, on: connection) }, pause: { .pause($0) }, conditions: { conditionsStep($0, on: connection) },
            output: { outputStep($0, on: connection) }, fault: { faultStep($0, on: connection) }, close: { closeStep(on: connection) },
            then: { rest in .run { [unowned self, unowned connection] in
                var rest = rest
                connection.insertSteps(self.streamSteps(continuing: &rest, on: connection))
            } })
        guard let end else { return steps }
        if !interpreter.isAtEnd {
            // A `then` waits: the steps it works out may change how the reply ends, which is
            // decided once they have run.
            steps.append(.whenWritten { [unowned connection] in
                if case .some(let earlier) = end.replacedConditions { connection.applyConditions(earlier) }
            })
            steps.append(.run { [unowned connection] in
                if !end.keepAlive, !end.scripted { connection.insertSteps([.close(.closeRequested)]) }
            })
            return steps
        }
        if end.changesConditions {
            // Once the reply has gone out under its conditions, the connection's own come back.
            steps.append(.whenWritten { [unowned connection] in
                if case .some(let earlier) = end.replacedConditions { connection.applyConditions(earlier) }
            })
        }
        if !end.keepAlive, !end.scripted { steps.append(.close(.closeRequested)) }
        return steps
    }

    /// A close on purpose: the reply decides how the connection ends.
    package func closeStep(on connection: StreamConnection) -> StreamStep {
        exchange.end?.scripted = true
        return .close(.script)
    }

    /// A fault on purpose: the reply decides how the connection ends.
    package func faultStep(_ fault: StreamFault, on connection: StreamConnection) -> StreamStep {
        exchange.end?.scripted = true
        return .fault(fault)
    }

    /// Conditions for the rest of the response, drawn when reached (a draw that misses leaves the
    /// connection as it is); the connection's own come back at its end. An answer to a request
    /// head, and `nil` (nothing to lift), have none.
    package func conditionsStep(_ conditions: NetworkConditions?, on connection: StreamConnection) -> StreamStep? {
        guard let conditions, let end = exchange.end else { return nil }
        end.changesConditions = true
        return .whenWritten { [unowned connection] in
            guard case .some(let earlier) = connection.runUnder(conditions), end.replacedConditions == nil else { return }
            end.replacedConditions = .some(earlier)
        }
    }

    package func outputStep(_ output: HTTPReplyOutput, on connection: StreamConnection) -> StreamStep {
        let (request, end) = exchange
        switch output {
        case .response(let response):
            let (bytes, sharesBody, tail, persistent) = HTTPResponseSerializer.serializeSharingBody(response, for: request)
            if !persistent { end?.keepAlive = false }
            if let request, HTTPResponseSerializer.dropsTrailers(response, for: request) {
                connection.log(.warning, "\(request.version) cannot carry trailers: \(response.trailers.map(\.name).joined(separator: ", ")) left out")
            }
            // A large body goes from the response's own storage, held once for every connection
            // sending it; a small answer is one buffer.
            return sharesBody ? .sendParts([bytes, response.body, tail]) : .send(bytes)
        case .continueRequest:
            return .run { [unowned self, unowned connection] in
                connection.send(HTTPResponseSerializer.continueResponse)
                if case .answeringHead = self.state { self.state = .awaitingRequest }
            }
        case .streamFault(let fault):
            // No stream to fail: a reset resets the connection, a stall hangs it, the others close it.
            end?.scripted = true
            connection.log(.debug, "HTTP/2 fault \(fault) on an HTTP/1.1 connection: \(fault.onHTTP11)")
            switch fault {
            case .reset: return .fault(.reset)
            case .stall: return .fault(.hang)
            case .goaway, .badHPACK, .illegalFrame: return .close(.script)
            }
        case .upgrade(let upgrade):
            end?.scripted = true
            guard let request else {
                return .run { [unowned connection] in
                    connection.log(.warning, "a \(upgrade.name) upgrade cannot answer a request head waiting for 100 Continue; ignored")
                    connection.endSteps()
                }
            }
            return .run { [unowned self, unowned connection] in self.upgrade(upgrade, for: request, on: connection) }
        }
    }

    /// Carries out `upgrade` for `request`: its answer goes out, then the connection is the new
    /// protocol's, bytes the client sent after the request included; or it is refused and closes.
    private func upgrade(_ upgrade: HTTPUpgrade, for request: HTTPMockRequest, on connection: StreamConnection) {
        switch upgrade.start(request, context(connection), connection.loop.inbox) {
        case .switchProtocols(let response, let driver):
            connection.log(.debug, "switching to \(upgrade.name)")
            connection.send(response)
            state = .upgraded(driver)
            let rest = parser.takeBuffered()
            if !rest.isEmpty { rest.withUnsafeBytes { driver.received($0, on: connection) } }
            connection.replaceRemainingSteps(with: driver.opened(connection))
        case .refuse(let response, let reason):
            connection.log(.warning, "\(upgrade.name) upgrade refused: \(reason)")
            connection.send(response)
            connection.replaceRemainingSteps(with: [.close(.malformedInput(reason))])
        }
    }
}
