import MockServerCore
import MockServerHTTP
import MockServerScript

/// A WebSocket connection (RFC 6455), answered by a script or by a Swift handler: it reads frames,
/// puts messages together and hands each to the script's responder as one input unit, or to the
/// handler's ``WebSocketConnection/messages``. A script's text commands go out as text messages,
/// `{"binary": …}`, `{"hex": …}` and `«data»` as binary ones. It answers pings, runs the close
/// handshake both ways, and fails a connection that breaks the protocol with the close code the
/// RFC asks for and a reason that names the culprit.
///
/// A script's connection begins with the opening handshake, which this driver reads; a handler's
/// begins open, after an HTTP connection answered the handshake and switched to it
/// (``MockServerHTTP/HTTPReplyOutput/upgrade(_:)``).
///
/// The transcript shows messages, not frames: each input is a message's payload, each output a
/// message's payload (control frames and the handshake are notes).
package final class WebSocketConnectionDriver: StreamDriver, ReplyPerformer {
    /// Who answers the client's messages. Out of line (one box): a script's case carries the whole
    /// substitution context, which would otherwise make every connection's driver several hundred
    /// bytes larger. The drivers of one script's connections share one box (``scripted(server:base:)``).
    private indirect enum Answerer: Sendable {
        /// A script: each message is an input unit for its responder.
        case script(server: any ScriptServer, base: SubstitutionContext)
        /// A Swift handler, through its socket; `name` (a stub's) goes into the transcript.
        case handler(WebSocketConnection, name: String?)
        /// A script an HTTP connection switched to (an endpoint's `"upgrade"`), its handshake
        /// answered: it becomes ``script(server:base:)`` on the loop's server when the connection opens.
        case upgraded(PatternResponder, request: HTTPMockRequest, subprotocol: String?)
    }

    private var answerer: Answerer
    private var state = WebSocketConnectionState.handshaking
    /// The opening handshake, read by the strict HTTP/1.1 parser that every HTTP listener uses.
    private var handshake = HTTPRequestParser(maximumHeadLength: WebSocketHandshake.maximumLength, maximumBodyLength: WebSocketHandshake.maximumLength)
    private var parser = WebSocketFrameParser(maximumPayload: 16 << 20)
    private var assembler = WebSocketMessageAssembler(maximumMessageLength: 16 << 20)
    private var options = WebSocketOptions()
    /// The connection's storage, made only when something needs it (a script's command run, a set
    /// switched): an idle connection that only echoed costs its three objects less (about 120 bytes).
    private var storage: ScriptConnectionStorage?
    private var answersPings = true
    /// A handler's run: given, then under way once the connection is open on its loop.
    private var handlerRun = WebSocketHandlerRun.none
    /// Whether the connection waits for the handler to take messages before it reads more.
    private var readingPaused = false

    /// A connection answered by `answerer`, from its opening handshake on.
    private init(answerer: Answerer) {
        self.answerer = answerer
    }

    /// What makes the driver of each connection answered by the script that `server` runs, from
    /// its opening handshake on: the drivers share one answerer, made here once, rather than each
    /// boxing its own copy of the substitution context (about 180 bytes an idle connection).
    package static func scripted(server: any ScriptServer, base: SubstitutionContext) -> @Sendable () -> WebSocketConnectionDriver {
        let answerer = Answerer.script(server: server, base: base)
        return { WebSocketConnectionDriver(answerer: answerer) }
    }

    /// A connection already open (its handshake answered over HTTP), answered by the handler that
    /// gets `socket`.
    init(socket: WebSocketConnection, name: String?, options: WebSocketOptions) {
        answerer = .handler(socket, name: name)
        use(options)
        state = .open
    }

    /// A connection already open (its handshake answered over HTTP), answered by `responder`'s
    /// script on the server of the loop it runs on.
    init(upgradedTo responder: PatternResponder, request: HTTPMockRequest, subprotocol: String?, options: WebSocketOptions) {
        answerer = .upgraded(responder, request: request, subprotocol: subprotocol)
        use(options)
        state = .open
    }

    /// Takes the handler that answers the connection; it starts when the connection opens on its
    /// loop (``opened(_:)``), and what it returns or throws ends the connection (``handlerEnded(_:on:)``).
    func startHandler(_ handler: @escaping @Sendable (WebSocketConnection) async throws -> Void) {
        guard case .handler = answerer else { return }
        handlerRun = .given(handler)
    }

    /// Starts the handler given, in a task whose jobs run on the connection's loop (where the
    /// system has task executors), as an HTTP responder's `async` answer does: the handler then
    /// never waits for Swift's cooperative pool, which the rest of the process (tests that block
    /// in a read or wait for a child process) can keep busy for many seconds.
    private func runHandler(_ socket: WebSocketConnection, on connection: StreamConnection) {
        guard case .given(let handler) = handlerRun else { return }
        let operation: @Sendable () async -> Void = {
            let outcome: Result<Void, any Error>
            do {
                try await handler(socket)
                outcome = .success(())
            } catch {
                outcome = .failure(error)
            }
            await socket.handlerEnded(outcome)
        }
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            handlerRun = .running(Task(executorPreference: LoopTaskExecutor.of(connection.loop), operation: operation))
        } else {
            handlerRun = .running(Task(operation: operation))
        }
    }

    package func opened(_ connection: StreamConnection) -> [StreamStep] {
        switch answerer {
        case .handler(let socket, _):
            socket.attach(self, on: connection)
            open(request: socket.request, subprotocol: socket.subprotocol, on: connection)
            runHandler(socket, on: connection)
        case .upgraded(let responder, let request, let subprotocol):
            guard let home = connection.loop.existingAttachment(ScriptServerOnLoop.self) else {
                // Only a loop without a script server (none a MockServer runs) gets here.
                let reason = "no script server runs on this loop"
                state = .finished
                return [.send(WebSocketFrame.close(.internalError, reason: reason).encoded()), .close(.malformedInput(reason))]
            }
            let server = UpgradedScriptServer(responder, on: home.server)
            answerer = .script(server: server, base: home.base)
            open(request: request, subprotocol: subprotocol, on: connection)
            // «initial» runs now, as after a handshake this driver read itself.
            let (scriptResponder, context) = server.replyState(base: home.base)
            return initialSteps(scriptResponder, context: context, on: connection)
        case .script:
            break
        }
        return []
    }

    package func received(_ bytes: UnsafeRawBufferPointer, on connection: StreamConnection) {
        switch state {
        case .handshaking:
            handshake.append(bytes)
        case .refused:
            // Read and dropped until the client closes, so that it reads the refusal, not a reset.
            break
        case .open, .closing, .finished:
            parser.append(bytes)
        }
    }

    package func next(on connection: StreamConnection, inputEnded: Bool) -> DriverDecision {
        switch state {
        case .handshaking:
            return shakeHands(on: connection, inputEnded: inputEnded)
        case .refused(let reason):
            return inputEnded ? .finish(.malformedInput(reason)) : .needInput
        case .finished:
            return inputEnded ? .finish(.peerClosed) : .needInput
        case .open, .closing:
            return readFrames(on: connection, inputEnded: inputEnded)
        }
    }

    package func closed(_ connection: StreamConnection, reason: Transcript.CloseReason) {
        state = .finished
        connection.loop.existingAttachment(WebSocketConnections.self)?.remove(connection.id)
        storage?.connectionClosed()
        if case .handler(let socket, _) = answerer {
            socket.ended(WebSocketConnection.ClosedError(reason: "the connection closed (\(reason)) without the client's close frame"))
            if case .running(let task) = handlerRun { task.cancel() }
            handlerRun = .ended
        }
    }

    // MARK: Handshake

    private func shakeHands(on connection: StreamConnection, inputEnded: Bool) -> DriverDecision {
        let parsed: HTTPMockRequest?
        do {
            parsed = try handshake.next()
        } catch {
            // What the strict parser refuses gets the answer every HTTP listener gives it (a head
            // over the handshake's limit is `431`), and the connection closes.
            if inputEnded { return .finish(error.closeReason) }
            let response = HTTPResponseSerializer.serialize(HTTPMalformedRequest.response(for: error), for: nil).bytes
            return refuse(.reject(response: response, reason: error.description), on: connection)
        }
        guard let request = parsed else { return inputEnded ? .finish(.peerClosed) : .needInput }
        let rest = handshake.takeBuffered()
        guard case .script(let server, let base) = answerer else { return .needInput }
        let (responder, context) = server.replyState(base: base)
        use(WebSocketOptions(script: responder.responseScript))
        let answer = WebSocketHandshake.answer(request, path: options.path, subprotocols: options.subprotocols)
        guard case .accept(let response, let subprotocol) = answer else { return refuse(answer, on: connection) }
        state = .open
        parser.append(rest)
        open(request: request, subprotocol: subprotocol, on: connection)
        return .steps([.send(response)] + initialSteps(responder, context: context, on: connection))
    }

    /// What a script's `«initial»` sends when the connection opens (nothing without one).
    private func initialSteps(_ responder: any ScriptResponder, context: SubstitutionContext, on connection: StreamConnection) -> [StreamStep] {
        var session = currentSession(of: connection)
        guard let reply = responder.connected(session: &session, context: context) else { return [] }
        keep(session, of: connection)
        return steps(for: reply, context: context, on: connection)
    }

    /// Takes `options`: the frame and message limits follow its longest message.
    private func use(_ options: WebSocketOptions) {
        self.options = options
        parser = WebSocketFrameParser(maximumPayload: options.maximumMessageLength)
        assembler = WebSocketMessageAssembler(maximumMessageLength: options.maximumMessageLength)
    }

    /// The handshake for `request` is done: the connection can be pushed to, and the transcript says so.
    private func open(request: HTTPMockRequest, subprotocol: String?, on connection: StreamConnection) {
        connection.loop.attachment(WebSocketConnections.self, make: WebSocketConnections.init).add(self, on: connection)
        connection.record(.note(Transcript.Note(kind: "websocket-open", text: "<- \(request.method) \(request.target): WebSocket open"
                                               + (subprotocol.map { " (subprotocol \($0))" } ?? ""))))
        connection.log(.debug, "WebSocket open at \(request.target)")
    }

    private func refuse(_ answer: WebSocketHandshake.Answer, on connection: StreamConnection) -> DriverDecision {
        guard case .reject(let response, let reason) = answer else { return .needInput }
        connection.log(.warning, "WebSocket handshake refused: \(reason)")
        connection.record(.note(Transcript.Note(kind: "websocket-refused", text: "-> handshake refused: \(reason)")))
        state = .refused(reason)
        return .steps(HTTPConnectionDriver.refusal(response, reason: .malformedInput(reason), on: connection))
    }

    // MARK: Frames

    private func readFrames(on connection: StreamConnection, inputEnded: Bool) -> DriverDecision {
        while true {
            let event: WebSocketEvent
            do {
                guard let frame = try parser.next() else {
                    return inputEnded ? .finish(.peerClosed) : .needInput
                }
                guard let assembled = try assembler.take(frame) else { continue }
                event = assembled
            } catch {
                return fail(error, on: connection)
            }
            switch event {
            case .ping(let payload):
                guard answersPings, state == .open else { continue }
                return .steps([.send(WebSocketFrame(opcode: .pong, payload: payload).encoded())])
            case .pong:
                continue
            case .close(let code, let reason):
                connection.record(.note(Transcript.Note(kind: "websocket-close", text: "<- close \(code.map(String.init(describing:)) ?? "(no code)") \(reason)")))
                if case .handler(let socket, _) = answerer { socket.clientClosed(code) }
                if state == .closing {
                    state = .finished
                    return .finish(.script)
                }
                state = .finished
                // The close frame goes back with the client's code (RFC 6455, section 5.5.1).
                return .steps([.send(WebSocketFrame.close(code).encoded()), .close(.peerClosed)])
            case .message(let message):
                guard state == .open else { continue }
                guard case .handler(let socket, let name) = answerer else { return answer(message, on: connection) }
                let input = InputUnit(bytes: message.bytes)
                connection.recordInput(input, response: name)
                connection.log(.trace, "<- \(input) [\(name ?? "")]")
                if socket.deliver(message) {
                    // The handler is behind: stop reading until it takes half of what waits.
                    connection.record(.note(Transcript.Note(kind: "websocket-paused",
                                                           text: "reading paused: \(WebSocketConnection.queueLimit) messages wait for the handler")))
                    readingPaused = true
                    return .wait
                }
            }
        }
    }

    /// Fails the connection (RFC 6455, section 7.1.7): a close frame with the error's code and
    /// reason, then the TCP connection closes without waiting for the client's.
    private func fail(_ error: WebSocketProtocolError, on connection: StreamConnection) -> DriverDecision {
        connection.log(.warning, "WebSocket protocol error: \(error); closing")
        if case .handler(let socket, _) = answerer { socket.ended(WebSocketConnection.ClosedError(reason: "the client broke the protocol: \(error.reason) (\(error.code))")) }
        connection.record(.note(Transcript.Note(kind: "websocket-error", text: "-> close \(error.code) \(error.reason)")))
        let alreadyClosing = state == .closing
        state = .finished
        if alreadyClosing { return .finish(.malformedInput(error.reason)) }
        return .steps([.send(WebSocketFrame.close(error.code, reason: error.reason).encoded()), .close(.malformedInput(error.reason))])
    }

    private func answer(_ message: WebSocketConnection.Message, on connection: StreamConnection) -> DriverDecision {
        guard case .script(let server, let base) = answerer else { return .needInput }
        let input = InputUnit(bytes: message.bytes)
        let (responder, context) = server.replyState(base: base)
        var session = currentSession(of: connection)
        let reply = responder.respond(to: input, session: &session, context: context)
        keep(session, of: connection)
        guard let reply else {
            connection.record(.unmatched(input))
            connection.log(.warning, "unmatched message: \(input)")
            state = .finished
            let reason = "no response matches the message"
            return .steps([.send(WebSocketFrame.close(.internalError, reason: reason).encoded()), .close(.unmatchedInput)])
        }
        connection.recordInput(input, response: reply.response)
        connection.log(.trace, "<- \(input) [\(reply.response ?? "")]")
        return .steps(steps(for: reply, context: context, on: connection))
    }

    /// Sends `message` from outside the script (the server's API, the admin API, a handler), after
    /// what the connection has queued; nothing once the close handshake has begun.
    ///
    /// - Returns: whether it was sent.
    @discardableResult
    func push(_ message: WebSocketConnection.Message, on connection: StreamConnection) -> Bool {
        guard state == .open else { return false }
        let opcode: WebSocketOpcode
        switch message {
        case .text: opcode = .text
        case .binary: opcode = .binary
        }
        connection.record(.output(message.bytes))
        connection.sendNow(WebSocketFrame(opcode: opcode, payload: message.bytes).encoded())
        return true
    }

    /// Begins the close handshake for a handler, with `reason` cut to the 123 bytes a close frame
    /// carries; a connection paused for the handler reads again, to hear the client's close frame.
    func close(_ code: WebSocketConnection.CloseCode, reason: String, on connection: StreamConnection) {
        beginClose(code, reason: Self.closeReason(reason), on: connection, fromOutside: true)
        resumeReading(on: connection)
    }

    /// The handler took enough of its messages: the connection reads again.
    func resumeReading(on connection: StreamConnection) {
        guard readingPaused else { return }
        readingPaused = false
        connection.resume()
    }

    /// A handler returned (the connection closes with 1000) or threw (1011, the error as the reason).
    func handlerEnded(_ outcome: Result<Void, any Error>, on connection: StreamConnection) {
        handlerRun = .ended
        defer { resumeReading(on: connection) }
        switch outcome {
        case .success:
            beginClose(.normal, reason: "", on: connection, fromOutside: true)
        case .failure(let error):
            guard state == .open else { return }
            connection.log(.warning, "the WebSocket handler threw: \(error)")
            beginClose(.internalError, reason: Self.closeReason("the handler threw: \(error)"), on: connection, fromOutside: true)
        }
    }

    /// `reason` cut to at most 123 bytes of UTF-8 at a character boundary.
    static func closeReason(_ reason: String) -> String {
        guard reason.utf8.count > 123 else { return reason }
        var cut = ""
        for character in reason {
            guard cut.utf8.count + character.utf8.count <= 123 else { break }
            cut.append(character)
        }
        return cut
    }

    // MARK: Replies

    private func steps(for reply: ScriptReply, context: SubstitutionContext, on connection: StreamConnection) -> [StreamStep] {
        guard case .script(let server, _) = answerer else { return [] }
        let run = ScriptRun(server: server, base: context, connectionID: connection.id, storage: madeStorage(of: connection))
        return streamSteps(for: run.steps(for: reply.commands, match: reply.match, as: WebSocketOutput.self), on: connection)
    }

    /// The connection's session: its storage's, or a new one's while it has none.
    private func currentSession(of connection: StreamConnection) -> ScriptSession {
        storage?.session ?? ScriptSession(connectionID: connection.id)
    }

    /// Keeps `session` in the connection's storage, made for it only when the session holds
    /// something (a set switched to: a session's only state).
    private func keep(_ session: ScriptSession, of connection: StreamConnection) {
        if let storage {
            storage.session = session
        } else if session.responseSet != nil {
            madeStorage(of: connection).session = session
        }
    }

    /// The connection's storage, made now if it has none yet.
    private func madeStorage(of connection: StreamConnection) -> ScriptConnectionStorage {
        if let storage { return storage }
        let made = ScriptConnectionStorage(connectionID: connection.id)
        storage = made
        return made
    }

    /// A text message; a text command whose substitutions made it something other than UTF-8 goes
    /// as binary (byte sends are binary messages already: WebSocket's vocabulary reads them so).
    package func sendStep(_ bytes: [UInt8], on connection: StreamConnection) -> StreamStep {
        let opcode: WebSocketOpcode = String(validating: bytes, as: UTF8.self) == nil ? .binary : .text
        return message(WebSocketFrame(opcode: opcode, payload: bytes), on: connection)
    }

    /// `«close»`: the close handshake, with 1000.
    package func closeStep(on connection: StreamConnection) -> StreamStep {
        .run { [unowned self, unowned connection] in self.beginClose(.normal, reason: "", on: connection) }
    }

    package func outputStep(_ output: WebSocketOutput, on connection: StreamConnection) -> StreamStep {
        switch output {
        case .frame(let frame): return message(frame, on: connection)
        case .close(let code, let reason):
            return .run { [unowned self, unowned connection] in self.beginClose(code, reason: reason, on: connection) }
        case .disconnect:
            return .run { [unowned self, unowned connection] in
                self.state = .finished
                connection.endSteps()
                connection.finishAfterOutput(.script)
            }
        case .ignorePings:
            return .run { [unowned self] in self.answersPings = false }
        }
    }

    /// A step that sends `frame`, recording a data message's payload in the transcript.
    private func message(_ frame: WebSocketFrame, on connection: StreamConnection) -> StreamStep {
        .run { [unowned self, unowned connection] in
            guard self.state == .open else {
                connection.log(.debug, "not sent after the close frame: opcode \(frame.opcode), \(frame.payload.count) bytes")
                return
            }
            switch WebSocketOpcode(rawValue: frame.opcode) {
            case .text, .binary, .continuation: connection.record(.output(frame.payload))
            default: connection.record(.note(Transcript.Note(kind: "websocket-frame", text: "-> frame opcode \(frame.opcode), \(frame.payload.count) bytes")))
            }
            connection.send(frame.encoded())
        }
    }

    /// Sends a close frame and waits for the client's, for at most ``WebSocketOptions/closeTimeout``.
    /// From outside the connection's steps (a handler), the frame is written at once rather than
    /// when the steps end.
    private func beginClose(_ code: WebSocketConnection.CloseCode, reason: String, on connection: StreamConnection, fromOutside: Bool = false) {
        guard state == .open else { return }
        connection.record(.note(Transcript.Note(kind: "websocket-close", text: "-> close \(code) \(reason)")))
        let frame = WebSocketFrame.close(code, reason: reason).encoded()
        if fromOutside { connection.sendNow(frame) } else { connection.send(frame) }
        connection.endSteps()
        state = .closing
        connection.loop.existingAttachment(WebSocketConnections.self)?.remove(connection.id)
        connection.loop.schedule(after: options.closeTimeout) { [weak connection] in
            connection?.finishAfterOutput(.script)
        }
    }
}
