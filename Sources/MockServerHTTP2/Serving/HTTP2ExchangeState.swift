import MockServerHTTP

/// Where one HTTP/2 stream's exchange stands, as one value, and what the driver does next: events go
/// in (the reply begins, a step sends or pauses, the steps end, a fault, a reset), actions come out,
/// and ``HTTP2ConnectionDriver`` does the framing, the windows and the timers they name. No frames,
/// no connection and no loop here, so the machine is tested on its own (as `TLSStateMachine` is).
///
/// Each case carries what is true in it: while the reply runs, whether its response's head went and
/// how the body's sends are read (as they are, chunked, or as raw HTTP/1.1 bytes); once the steps
/// end, whether the connection closes after the stream. No flag stands beside the phase.
package struct HTTP2ExchangeState {
    /// Where the stream's exchange stands.
    package enum Phase {
        /// The request's fields and body are arriving.
        case receiving
        /// The responder computes the answer (in a task, or on the loop for an
        /// ``MockServerHTTP/HTTPLoopResponder``); `cancel` ends that work when the stream or the
        /// connection goes first.
        case answering(cancel: () -> Void)
        /// The reply's steps run, wait for a pause, or wait for the queued bytes (``Stepping``); the
        /// response stands as ``Response`` says.
        case replying(Response, Stepping)
        /// A `hang` fault (or a stall, or a frame no client reads): nothing more is sent on the stream
        /// but what was queued.
        case hanging
        /// The steps have all run: what is queued goes, then the stream ends, and after it the
        /// connection when ``After`` says so. The response is ``Response/notStarted`` or
        /// ``Response/headSent(_:)`` with a ``Body/plain`` body: its readers were finished.
        case ending(Response, then: After)
        /// The stream is over (ended, reset or refused).
        case done
    }

    /// Whether the reply's steps run.
    package enum Stepping: Equatable, Sendable {
        /// They run, one after another.
        case running
        /// A step waits (a pause), after which the steps go on.
        case paused
        /// The steps queued ``HTTP2ConnectionDriver/streamQueueLimit`` bytes or more: they wait,
        /// while those bytes go as the windows and the connection's output allow, until half are left.
        case draining
        /// The steps ran out, and the stream's ``MockServerHTTP/HTTPStreamingAnswer`` gives more as the
        /// request's body arrives (a gRPC call answered message by message): what is queued goes.
        case awaitingInput
    }

    /// The stream's response. The parser and the chunk reader are boxed (`indirect`): the common
    /// response needs neither, and a phase that holds a pointer at most copies and ends cheaply.
    package enum Response {
        /// No response went yet.
        case notStarted
        /// The reply sent bytes before any response (a script's plain `send`): they are read as an
        /// HTTP/1.1 response, whose head has not all come.
        indirect case rawHead(HTTPResponseParser)
        /// The response's HEADERS went (a second response on the stream is dropped); its body's sends
        /// are read as ``Body`` says.
        case headSent(Body)
    }

    /// How the sends after a response's head become the stream's DATA.
    package enum Body {
        /// As they are.
        case plain
        /// The response is streamed: its sends are HTTP/1.1 chunks, whose coding comes off.
        indirect case chunked(HTTP2ChunkReader)
        /// The response came as raw HTTP/1.1 bytes: the sends go on being read as its body.
        indirect case raw(HTTPResponseParser)
    }

    /// What follows the stream's end.
    package enum After: Equatable, Sendable {
        /// Nothing: the connection goes on.
        case streamEnds
        /// A «close»: once the stream's end has gone (all its body, as the windows allow), the
        /// connection closes (GOAWAY first).
        case connectionCloses
    }

    /// Where the stream stands.
    package private(set) var phase: Phase

    /// A stream whose request begins to arrive.
    package init() {
        phase = .receiving
    }

    /// A machine in `phase` (tests start one anywhere).
    package init(phase: Phase) {
        self.phase = phase
    }

    // MARK: Queries

    /// Whether the request is still arriving.
    @inline(__always) package var isReceiving: Bool {
        if case .receiving = phase { true } else { false }
    }

    /// Whether the responder computes the answer.
    @inline(__always) package var isAnswering: Bool {
        if case .answering = phase { true } else { false }
    }

    /// Whether the reply's steps run (not paused, not waiting for the queue, not ended).
    @inline(__always) package var stepsRun: Bool {
        if case .replying(_, .running) = phase { true } else { false }
    }

    /// Whether the steps wait for the queued bytes.
    @inline(__always) package var isDraining: Bool {
        if case .replying(_, .draining) = phase { true } else { false }
    }

    /// Whether the stream is over.
    @inline(__always) package var isDone: Bool {
        if case .done = phase { true } else { false }
    }

    // MARK: The answer

    /// The responder computes the answer elsewhere: the stream waits for it. Only a stream whose
    /// request arrived waits so.
    package mutating func answerLater() {
        guard case .receiving = phase else { return }
        phase = .answering(cancel: {})
    }

    /// The answer's work runs, and `cancel` ends it (kept only while the stream still waits for it).
    package mutating func answerWaits(cancel: @escaping () -> Void) {
        guard case .answering = phase else { return }
        phase = .answering(cancel: cancel)
    }

    /// The reply begins (its steps run next): whether it does, from a stream whose request arrived
    /// or whose answer was computed; not once the stream is replying, hanging, ending or over.
    package mutating func beginReply() -> Bool {
        switch phase {
        case .receiving, .answering:
            phase = .replying(.notStarted, .running)
            return true
        case .replying, .hanging, .ending, .done:
            return false
        }
    }

    // MARK: Steps

    /// A step waits for a pause: whether it does (the steps ran).
    package mutating func pause() -> Bool {
        guard case .replying(let response, .running) = phase else { return false }
        phase = .replying(response, .paused)
        return true
    }

    /// A pause's timer fired: whether the steps go on (the stream is still paused, not reset or
    /// ended meanwhile).
    package mutating func pauseEnded() -> Bool {
        guard case .replying(let response, .paused) = phase else { return false }
        phase = .replying(response, .running)
        return true
    }

    /// The steps queued too much: they wait for it to go (whether they do: they ran).
    package mutating func queueFull() -> Bool {
        guard case .replying(let response, .running) = phase else { return false }
        phase = .replying(response, .draining)
        return true
    }

    /// Enough of the queue went: whether the steps go on (they waited for it).
    package mutating func queueDrained() -> Bool {
        guard case .replying(let response, .draining) = phase else { return false }
        phase = .replying(response, .running)
        return true
    }

    /// A streaming answer's steps ran out before its end: they wait for the request's next bytes
    /// (whether they do: they ran).
    package mutating func awaitInput() -> Bool {
        guard case .replying(let response, .running) = phase else { return false }
        phase = .replying(response, .awaitingInput)
        return true
    }

    /// The request's next bytes gave a streaming answer more steps: whether they run now (the steps
    /// waited for input; otherwise they run after those running, or the stream is past them).
    package mutating func inputArrived() -> Bool {
        guard case .replying(let response, .awaitingInput) = phase else { return false }
        phase = .replying(response, .running)
        return true
    }

    /// Whether the stream still runs a reply's steps (running, paused, draining or awaiting input):
    /// a streaming answer's further steps queue behind them.
    package var isReplying: Bool {
        if case .replying = phase { true } else { false }
    }

    /// A `hang` (or a stall's or a broken frame's end): nothing more is sent but what was queued.
    /// A stream over stays over.
    package mutating func hang() {
        guard !isDone else { return }
        phase = .hanging
    }

    /// What a `stall` fault does first.
    package enum StallAction: Equatable, Sendable {
        /// No head went: a `200` head goes (the body never does).
        case sendHead
        /// The head went: nothing more goes.
        case none
    }

    /// A `stall` fault: the stream hangs, after a head when none went (a fault cutting the body: the
    /// client has a response whose body never comes; before any head, it gets one first).
    package mutating func stall() -> StallAction {
        let action: StallAction
        switch phase {
        case .replying(.notStarted, _), .replying(.rawHead, _), .ending(.notStarted, _): action = .sendHead
        case .receiving, .answering, .replying, .hanging, .ending, .done: action = .none
        }
        hang()
        return action
    }

    /// What a step's send becomes.
    package enum SendAction {
        /// Bytes before any response, or a raw response's next bytes: what reading them as an
        /// HTTP/1.1 response gave (its head, body bytes).
        case raw([HTTPResponseParser.Event])
        /// The bytes are not an HTTP/1.1 response: nothing is sent.
        case notAResponse(any Error)
        /// Body bytes to queue as DATA; `trailers`: the trailer section a streamed body's sends
        /// brought so far, which closes the stream as HEADERS (a gRPC answer's status).
        case queue([UInt8], trailers: HTTPHeaderFields?)
        /// Nothing goes: the request was `HEAD`, or the stream is not replying.
        case drop
    }

    /// A step sends `bytes` (`method`: the request's, for reading them as a response; `isHead`: no
    /// body goes).
    package mutating func send(_ bytes: [UInt8], method: String, isHead: Bool) -> SendAction {
        guard case .replying(let response, let stepping) = phase else { return .drop }
        switch response {
        case .notStarted:
            // Bytes before any response: a response written out in HTTP/1.1, read as one.
            return readRaw(bytes, HTTPResponseParser(requestMethod: method), headSent: false, stepping)
        case .rawHead(let parser):
            phase = .done
            return readRaw(bytes, parser, headSent: false, stepping)
        case .headSent(.raw(let parser)):
            phase = .done
            return readRaw(bytes, parser, headSent: true, stepping)
        case .headSent(.plain):
            return isHead ? .drop : .queue(bytes, trailers: nil)
        case .headSent(.chunked(var reader)):
            guard !isHead else { return .drop }
            // Out of the phase while it reads, so that its buffer is not copied.
            phase = .done
            let body = reader.take(bytes)
            let trailers = reader.trailers
            phase = .replying(.headSent(.chunked(reader)), stepping)
            return .queue(body, trailers: trailers.fields.isEmpty ? nil : trailers)
        }
    }

    private mutating func readRaw(_ bytes: [UInt8], _ parser: HTTPResponseParser, headSent: Bool, _ stepping: Stepping) -> SendAction {
        var parser = parser
        let action: SendAction
        do {
            action = .raw(try parser.append(bytes))
        } catch {
            action = .notAResponse(error)
        }
        phase = .replying(headSent ? .headSent(.raw(parser)) : .rawHead(parser), stepping)
        return action
    }

    /// What a response's head does.
    package enum HeadAction: Equatable, Sendable {
        /// A response went already: this one is not sent.
        case drop
        /// Its HEADERS frame goes; the stream stays open for what follows.
        case send
        /// Its HEADERS frame goes with END_STREAM: nothing follows it, and the stream is over once
        /// it went (``streamEnded()``).
        case sendEndingStream
    }

    /// A response's head: whether it goes (not after another's), and whether it ends the stream.
    /// `raw`: read from the reply's HTTP/1.1 bytes; `chunked`: its body's sends are chunks;
    /// `nothingFollows`: no body, no trailers, nothing queued and no step left.
    package mutating func head(raw: Bool, chunked: Bool, nothingFollows: Bool) -> HeadAction {
        let body: Body = chunked && !raw ? .chunked(HTTP2ChunkReader()) : .plain
        switch phase {
        case .replying(.notStarted, let stepping):
            phase = .replying(.headSent(body), stepping)
        case .replying(.rawHead(let parser), let stepping):
            // The raw response's head (or another response before it came whole): the sends go on
            // being read as the raw response's body.
            phase = .done
            phase = .replying(.headSent(.raw(parser)), stepping)
        case .ending(.notStarted, let after):
            phase = .ending(.headSent(.plain), then: after)
        case .receiving, .answering, .replying(.headSent, _), .hanging, .ending, .done:
            return .drop
        }
        // A raw response's length is its own: it is streamed, so never ends on its head.
        return nothingFollows && !raw && !chunked ? .sendEndingStream : .send
    }

    /// Finishes reading a raw response (the reply's bytes ended): what the end of its bytes gave
    /// (a body its close delimits is complete), or nothing when no raw response is read. Its head,
    /// if one came, went; the rest of the reply's sends go as they are.
    package mutating func finishRaw() -> [HTTPResponseParser.Event] {
        let parser: HTTPResponseParser
        switch phase {
        case .replying(.rawHead(let raw), let stepping):
            parser = raw
            phase = .replying(.notStarted, stepping)
        case .replying(.headSent(.raw(let raw)), let stepping):
            parser = raw
            phase = .replying(.headSent(.plain), stepping)
        case .receiving, .answering, .replying, .hanging, .ending, .done:
            return []
        }
        var finishing = parser
        return (try? finishing.finish()) ?? []
    }

    /// The steps ended, all run, or a «close» ended them (`after`): the rest of a streamed body's
    /// unfinished chunk (what a cut piece sent), which goes before the end. Only running steps end
    /// so; call ``finishRaw()`` first.
    package mutating func stepsEnded(then after: After) -> [UInt8] {
        guard case .replying(let response, .running) = phase else { return [] }
        switch response {
        case .notStarted, .rawHead:
            phase = .ending(.notStarted, then: after)
            return []
        case .headSent(.chunked(var reader)):
            phase = .done
            let rest = reader.takeRest()
            phase = .ending(.headSent(.plain), then: after)
            return rest
        case .headSent:
            phase = .ending(.headSent(.plain), then: after)
            return []
        }
    }

    // MARK: Sending

    /// How the stream's queued bytes go now.
    package enum SendPlan: Equatable, Sendable {
        /// The steps run: the bytes wait for them to stop at a pause, a hang or the end, so that a
        /// response's last DATA frame carries END_STREAM instead of an empty frame after it.
        case wait
        /// The steps wait for the queue: only what brings it down to half goes (for the same reason).
        case drain
        /// The steps ended and sent no response: the stream still needs a head (a `200`), first.
        case headFirst
        /// What the windows allow goes; when `ending`, the stream ends once all went (END_STREAM on
        /// the last DATA frame, or on the trailers' HEADERS).
        case send(ending: Bool)
    }

    /// How the queued bytes go now; `whileReplying`: they go even while the steps run (before a
    /// fault that ends the stream or the connection).
    package func sendPlan(whileReplying: Bool) -> SendPlan {
        switch phase {
        case .replying(_, .running): whileReplying ? .send(ending: false) : .wait
        case .replying(_, .draining): .drain
        case .ending(.notStarted, _): .headFirst
        case .ending: .send(ending: true)
        case .receiving, .answering, .replying, .hanging, .done: .send(ending: false)
        }
    }

    // MARK: The end

    /// What follows the stream's end.
    package enum EndedAction: Equatable, Sendable {
        /// The stream is over; the connection goes on.
        case none
        /// The connection closes (a «close» ended the steps): GOAWAY, then the close.
        case closeConnection
    }

    /// The stream's end went (END_STREAM on its last frame): it is over.
    package mutating func streamEnded() -> EndedAction {
        let action: EndedAction = if case .ending(_, .connectionCloses) = phase { .closeConnection } else { .none }
        phase = .done
        return action
    }

    /// The stream is over before its end (reset by either side, refused, or its connection ended):
    /// the answer's work to cancel, when the responder was still computing it.
    package mutating func reset() -> (() -> Void)? {
        let cancel: (() -> Void)? = if case .answering(let cancel) = phase { cancel } else { nil }
        phase = .done
        return cancel
    }
}
