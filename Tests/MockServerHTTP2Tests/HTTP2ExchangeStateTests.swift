import MockServerHTTP
@testable import MockServerHTTP2
import Testing

/// An HTTP/2 stream's exchange state on its own: events in, actions out, no frames, no connection
/// and no loop.
@Suite("HTTP/2 stream state machine")
struct HTTP2ExchangeStateTests {
    typealias Machine = HTTP2ExchangeState

    /// The phase's name and what its case carries, comparable (a phase holds a closure, a parser
    /// and a chunk reader, which are not).
    private static func shape(_ machine: Machine) -> String {
        func response(_ response: Machine.Response) -> String {
            switch response {
            case .notStarted: "notStarted"
            case .rawHead: "rawHead"
            case .headSent(.plain): "headSent(plain)"
            case .headSent(.chunked): "headSent(chunked)"
            case .headSent(.raw): "headSent(raw)"
            }
        }
        return switch machine.phase {
        case .receiving: "receiving"
        case .answering: "answering"
        case .replying(let r, let stepping): "replying(\(response(r)), \(stepping))"
        case .hanging: "hanging"
        case .ending(let r, let after): "ending(\(response(r)), \(after))"
        case .done: "done"
        }
    }

    /// A machine whose reply began and sent a plain response's head.
    private static func replyingWithHead() -> Machine {
        var machine = Machine()
        _ = machine.beginReply()
        _ = machine.head(raw: false, chunked: false, nothingFollows: false)
        return machine
    }

    /// A machine in each phase a stream can be in, by name, with how it got there.
    private static func everyPhase() -> [(String, Machine)] {
        var answering = Machine()
        answering.answerLater()
        var replying = Machine()
        _ = replying.beginReply()
        var paused = replyingWithHead()
        _ = paused.pause()
        var draining = replyingWithHead()
        _ = draining.queueFull()
        var hanging = replyingWithHead()
        hanging.hang()
        var ending = replyingWithHead()
        _ = ending.stepsEnded(then: .streamEnds)
        var done = ending
        _ = done.streamEnded()
        return [("receiving", Machine()), ("answering", answering), ("replying", replying), ("paused", paused),
                ("draining", draining), ("hanging", hanging), ("ending", ending), ("done", done)]
    }

    private static let get = Array("GET".utf8)

    @Test("a small answer: the request arrives, the reply begins, its head ends the stream, and the stream is over")
    func smallAnswer() {
        var machine = Machine()
        #expect(machine.isReceiving)
        #expect(machine.beginReply() == true)
        #expect(Self.shape(machine) == "replying(notStarted, running)" && machine.stepsRun)
        #expect(machine.head(raw: false, chunked: false, nothingFollows: true) == .sendEndingStream)
        #expect(Self.shape(machine) == "replying(headSent(plain), running)")
        #expect(machine.streamEnded() == .none)
        #expect(machine.isDone)
    }

    @Test("END_STREAM on the head only when nothing follows it and it is not streamed; otherwise on the last DATA or the trailers, once the steps end")
    func endStreamBothWays() {
        var onHead = Machine()
        _ = onHead.beginReply()
        #expect(onHead.head(raw: false, chunked: false, nothingFollows: true) == .sendEndingStream)

        var onData = Machine()
        _ = onData.beginReply()
        #expect(onData.head(raw: false, chunked: false, nothingFollows: false) == .send)
        #expect(onData.sendPlan(whileReplying: false) == .wait, "the bytes wait while the steps run")
        #expect(onData.stepsEnded(then: .streamEnds) == [])
        #expect(Self.shape(onData) == "ending(headSent(plain), streamEnds)")
        #expect(onData.sendPlan(whileReplying: false) == .send(ending: true), "the last DATA frame (or the trailers) carries END_STREAM")
        #expect(onData.streamEnded() == .none)

        for (raw, chunked) in [(true, false), (false, true)] {
            var streamed = Machine()
            _ = streamed.beginReply()
            if raw { _ = streamed.send(Array("HTTP/1.1 200 OK\r\n".utf8), method: "GET", isHead: false) }
            #expect(streamed.head(raw: raw, chunked: chunked, nothingFollows: true) == .send, "a streamed response (raw \(raw)) never ends on its head")
        }
    }

    @Test("the reply begins from a request that arrived or an answer computed; not twice, not after a reset")
    func beginReply() {
        var answering = Machine()
        answering.answerLater()
        #expect(answering.isAnswering)
        #expect(answering.beginReply() == true)
        #expect(answering.beginReply() == false, "a reply already runs")
        for (name, state) in Self.everyPhase() where !["receiving", "answering"].contains(name) {
            var machine = state
            #expect(machine.beginReply() == false, "a reply began in \(name)")
            #expect(Self.shape(machine) == Self.shape(state))
        }
    }

    @Test("an answer computed elsewhere: its cancel is kept only while the stream waits; a reset in answering hands it back to run")
    func answeringCancel() {
        var cancelled = 0
        var machine = Machine()
        machine.answerWaits(cancel: { cancelled += 1 })
        #expect(machine.isReceiving, "a stream still receiving does not wait for an answer")
        machine.answerLater()
        machine.answerWaits(cancel: { cancelled += 1 })
        machine.reset()?()
        #expect(cancelled == 1 && machine.isDone)
        var replying = Machine()
        _ = replying.beginReply()
        replying.answerLater()
        replying.answerWaits(cancel: { cancelled += 1 })
        #expect(replying.reset() == nil && cancelled == 1, "a stream replying has no answer to cancel")
    }

    @Test("a reset in each phase: the stream is over, and only a stream waiting for its answer has work to cancel", arguments: ["receiving", "answering", "replying", "paused", "draining", "hanging", "ending", "done"])
    func resetInEachPhase(_ name: String) throws {
        var machine = try #require(Self.everyPhase().first { $0.0 == name }?.1)
        var cancelled = false
        machine.answerWaits(cancel: { cancelled = true })
        let cancel = machine.reset()
        #expect((cancel != nil) == (name == "answering"))
        cancel?()
        #expect(cancelled == (name == "answering"))
        #expect(machine.isDone)
        // Nothing moves a stream that is over.
        #expect(machine.beginReply() == false)
        #expect(machine.pause() == false)
        #expect(machine.pauseEnded() == false)
        #expect(machine.queueFull() == false)
        #expect(machine.queueDrained() == false)
        #expect(machine.head(raw: false, chunked: false, nothingFollows: true) == .drop)
        machine.hang()
        #expect(machine.isDone, "a hang does not reopen a stream that is over")
        #expect(machine.stepsEnded(then: .connectionCloses).isEmpty && machine.isDone)
        if case .drop = machine.send([1], method: "GET", isHead: false) {} else { Issue.record("a send on a stream over was not dropped") }
    }

    @Test("a pause: only running steps pause, and its timer resumes only a stream still paused")
    func pause() {
        var machine = Self.replyingWithHead()
        #expect(machine.pauseEnded() == false, "no pause runs")
        #expect(machine.pause() == true)
        #expect(Self.shape(machine) == "replying(headSent(plain), paused)" && !machine.stepsRun)
        #expect(machine.pause() == false, "a paused stream does not pause again")
        #expect(machine.sendPlan(whileReplying: false) == .send(ending: false), "what was queued goes during the pause")
        #expect(machine.pauseEnded() == true)
        #expect(machine.stepsRun)
        #expect(machine.pauseEnded() == false, "a timer fires once")
        _ = machine.pause()
        _ = machine.reset()
        #expect(machine.pauseEnded() == false, "a pause's timer does nothing on a reset stream")
    }

    @Test("the queue: running steps wait while it drains to half, only what brings it there goes, and the steps go on once")
    func draining() {
        var machine = Self.replyingWithHead()
        #expect(machine.queueDrained() == false, "the steps did not wait")
        #expect(machine.queueFull() == true)
        #expect(machine.isDraining && !machine.stepsRun)
        #expect(machine.sendPlan(whileReplying: false) == .drain)
        #expect(machine.sendPlan(whileReplying: true) == .drain)
        #expect(machine.queueFull() == false, "draining steps do not wait again")
        #expect(machine.pause() == false, "draining steps do not pause")
        #expect(machine.queueDrained() == true)
        #expect(machine.stepsRun)
        #expect(machine.queueDrained() == false)
    }

    @Test("the send plan in each phase")
    func sendPlans() {
        let plans: [String: Machine.SendPlan] = [
            "receiving": .send(ending: false), "answering": .send(ending: false), "replying": .wait, "paused": .send(ending: false),
            "draining": .drain, "hanging": .send(ending: false), "ending": .send(ending: true), "done": .send(ending: false),
        ]
        for (name, machine) in Self.everyPhase() {
            #expect(machine.sendPlan(whileReplying: false) == plans[name], "\(name)")
        }
        #expect(Self.replyingWithHead().sendPlan(whileReplying: true) == .send(ending: false), "before a fault, the bytes go while the steps run")
    }

    @Test("steps that end with no response: the stream needs a 200 head first, which then goes, once")
    func endsWithoutResponse() {
        var machine = Machine()
        _ = machine.beginReply()
        #expect(machine.stepsEnded(then: .streamEnds) == [])
        #expect(Self.shape(machine) == "ending(notStarted, streamEnds)")
        #expect(machine.sendPlan(whileReplying: false) == .headFirst)
        #expect(machine.head(raw: false, chunked: false, nothingFollows: true) == .sendEndingStream)
        #expect(Self.shape(machine) == "ending(headSent(plain), streamEnds)")
        #expect(machine.head(raw: false, chunked: false, nothingFollows: true) == .drop)
        #expect(machine.sendPlan(whileReplying: false) == .send(ending: true))
    }

    @Test("a second response on the stream is dropped, replying or ending")
    func secondResponse() {
        var machine = Self.replyingWithHead()
        #expect(machine.head(raw: false, chunked: false, nothingFollows: false) == .drop)
        #expect(machine.head(raw: true, chunked: false, nothingFollows: false) == .drop)
        _ = machine.stepsEnded(then: .streamEnds)
        #expect(machine.head(raw: false, chunked: false, nothingFollows: true) == .drop)
    }

    @Test("a «close»: the stream ends with what was sent, then the connection closes; an end without it leaves the connection")
    func close() {
        var closing = Self.replyingWithHead()
        _ = closing.stepsEnded(then: .connectionCloses)
        #expect(Self.shape(closing) == "ending(headSent(plain), connectionCloses)")
        #expect(closing.sendPlan(whileReplying: false) == .send(ending: true))
        #expect(closing.streamEnded() == .closeConnection)
        #expect(closing.isDone)
        #expect(closing.streamEnded() == .none, "the close is asked for once")
        var paused = Self.replyingWithHead()
        _ = paused.pause()
        _ = paused.stepsEnded(then: .connectionCloses)
        #expect(Self.shape(paused) == "replying(headSent(plain), paused)", "only running steps end")
        #expect(paused.streamEnded() == .none, "a stream that ends otherwise (its head) leaves the connection")
    }

    @Test("a stall cuts the body after a head; before any head a 200 head goes first; either way the stream hangs")
    func stallHeadVersusBody() {
        var beforeHead = Machine()
        _ = beforeHead.beginReply()
        #expect(beforeHead.stall() == .sendHead, "the fault cuts the head: the client gets one, then nothing")
        #expect(Self.shape(beforeHead) == "hanging")
        var rawHalf = Machine()
        _ = rawHalf.beginReply()
        _ = rawHalf.send(Array("HTTP/1.1 200 OK\r\nContent-Le".utf8), method: "GET", isHead: false)
        #expect(Self.shape(rawHalf) == "replying(rawHead, running)")
        #expect(rawHalf.stall() == .sendHead, "half a raw head is no head")
        var afterHead = Self.replyingWithHead()
        #expect(afterHead.stall() == .none, "the fault cuts the body: the head went")
        #expect(Self.shape(afterHead) == "hanging")
        #expect(afterHead.sendPlan(whileReplying: false) == .send(ending: false), "what was queued may go, the end never does")
        #expect(afterHead.head(raw: false, chunked: false, nothingFollows: true) == .drop)
        #expect(afterHead.stepsEnded(then: .streamEnds).isEmpty && Self.shape(afterHead) == "hanging")
        #expect(afterHead.pause() == false)
        #expect(afterHead.queueFull() == false)
    }

    @Test("sends before any response are read as an HTTP/1.1 response: its head, then its body, each once; bytes that are not one are refused")
    func rawResponse() {
        var machine = Machine()
        _ = machine.beginReply()
        guard case .raw(let first) = machine.send(Array("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n".utf8), method: "GET", isHead: false) else {
            Issue.record("not read as a response"); return
        }
        #expect(first.isEmpty && Self.shape(machine) == "replying(rawHead, running)")
        guard case .raw(let second) = machine.send(Array("\r\nhel".utf8), method: "GET", isHead: false),
              case .head(let head)? = second.first else {
            Issue.record("no head"); return
        }
        #expect(head.status == 200 && second.dropFirst() == [.body(Array("hel".utf8))])
        #expect(machine.head(raw: true, chunked: false, nothingFollows: false) == .send)
        #expect(Self.shape(machine) == "replying(headSent(raw), running)")
        guard case .raw(let rest) = machine.send(Array("lo".utf8), method: "GET", isHead: false) else {
            Issue.record("the body's sends are not read as the raw response's"); return
        }
        #expect(rest.first == .body(Array("lo".utf8)))
        #expect(machine.finishRaw() == [], "the body was complete")
        #expect(Self.shape(machine) == "replying(headSent(plain), running)")
        #expect(machine.finishRaw() == [], "finished once")

        var notOne = Machine()
        _ = notOne.beginReply()
        if case .notAResponse = notOne.send(Array("hello\r\n\r\n".utf8), method: "GET", isHead: false) {} else {
            Issue.record("plain bytes were taken as a response")
        }
    }

    @Test("a raw response's close delimits its body: the end of the reply's bytes completes it, and its head, still to come, is no head")
    func rawFinish() {
        var machine = Machine()
        _ = machine.beginReply()
        _ = machine.send(Array("HTTP/1.1 200 OK\r\n\r\nbody".utf8), method: "GET", isHead: false)
        _ = machine.head(raw: true, chunked: false, nothingFollows: false)
        #expect(machine.finishRaw().contains(.end) == true)
        var unfinished = Machine()
        _ = unfinished.beginReply()
        _ = unfinished.send(Array("HTTP/1.1 2".utf8), method: "GET", isHead: false)
        _ = unfinished.finishRaw()
        #expect(Self.shape(unfinished) == "replying(notStarted, running)")
        _ = unfinished.stepsEnded(then: .streamEnds)
        #expect(unfinished.sendPlan(whileReplying: false) == .headFirst)
    }

    @Test("a streamed response's sends lose their chunk coding; its trailer section comes out; a cut chunk's rest goes at the end")
    func chunked() {
        var machine = Machine()
        _ = machine.beginReply()
        #expect(machine.head(raw: false, chunked: true, nothingFollows: false) == .send)
        #expect(Self.shape(machine) == "replying(headSent(chunked), running)")
        guard case .queue(let body, let trailers) = machine.send(Array("5\r\nhello\r\n3\r\nab".utf8), method: "GET", isHead: false) else {
            Issue.record("not queued"); return
        }
        #expect(body == Array("hello".utf8) && trailers == nil)
        #expect(machine.stepsEnded(then: .streamEnds) == Array("ab".utf8), "the cut chunk's bytes")
        #expect(Self.shape(machine) == "ending(headSent(plain), streamEnds)")

        var withTrailers = Machine()
        _ = withTrailers.beginReply()
        _ = withTrailers.head(raw: false, chunked: true, nothingFollows: false)
        guard case .queue(let data, let fields?) = withTrailers.send(Array("2\r\nhi\r\n0\r\ngrpc-status: 0\r\n\r\n".utf8), method: "POST", isHead: false) else {
            Issue.record("no trailers"); return
        }
        #expect(data == Array("hi".utf8) && fields["grpc-status"] == "0")
    }

    @Test("a HEAD's body sends are dropped, plain or chunked")
    func headRequest() {
        for chunked in [false, true] {
            var machine = Machine()
            _ = machine.beginReply()
            _ = machine.head(raw: false, chunked: chunked, nothingFollows: false)
            if case .drop = machine.send(Array("5\r\nhello\r\n".utf8), method: "HEAD", isHead: true) {} else {
                Issue.record("a HEAD's body went (chunked \(chunked))")
            }
        }
    }

    @Test("a hang: the stream hangs from any phase but done, and stays so")
    func hang() {
        for (name, state) in Self.everyPhase() {
            var machine = state
            machine.hang()
            #expect(Self.shape(machine) == (name == "done" ? "done" : "hanging"), "\(name)")
            #expect(machine.beginReply() == false)
            #expect(machine.pauseEnded() == false)
            #expect(machine.queueDrained() == false)
        }
    }
}
