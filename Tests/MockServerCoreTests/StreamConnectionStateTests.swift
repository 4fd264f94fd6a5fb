import MockServerCore
import Testing

/// The stream connection's state machine on its own: events in, decisions out, no sockets, no loop
/// and no driver.
@Suite("Stream connection state machine")
struct StreamConnectionStateTests {
    typealias Machine = StreamConnectionState

    @Test("an accepted connection runs and reads; an outbound one waits for its connect, watching for writability")
    func beginnings() {
        let accepted = Machine()
        #expect(accepted.activity == .running && accepted.interest == .read && accepted.input == .flowing)
        #expect(accepted.wantsInput(stepsPending: false, outputCount: 0))
        var outbound = Machine.connecting()
        #expect(outbound.isConnecting && outbound.interest == .write)
        #expect(!outbound.wantsInput(stepsPending: false, outputCount: 0))
        outbound.connected()
        #expect(outbound.activity == .running)
        #expect(outbound.interest == .write, "the interest changes when the connection next asks for it")
        #expect(outbound.interestChange(stepsPending: false, outputCount: 0, keepingHeldRead: false) == .read)
    }

    @Test("an outbound connection that was never made closes without a record; one made records its close")
    func connectRecords() {
        var refused = Machine.connecting()
        #expect(refused.recordClose() == false)
        #expect(refused.close() == .init(records: false))
        var made = Machine.connecting()
        made.connected()
        #expect(made.close() == .init(records: true))
    }

    @Test("input is read only while running with no steps pending, the input not ended and the output under the high-water mark; always while lingering")
    func wantsInput() {
        let running = Machine()
        #expect(running.wantsInput(stepsPending: false, outputCount: Machine.highWater - 1))
        #expect(!running.wantsInput(stepsPending: true, outputCount: 0))
        #expect(!running.wantsInput(stepsPending: false, outputCount: Machine.highWater))
        #expect(!Machine(activity: .running, input: .ended).wantsInput(stepsPending: false, outputCount: 0))
        #expect(Machine(activity: .lingering(.peerClosed), input: .flowing).wantsInput(stepsPending: true, outputCount: 1 << 30))
        for activity: Machine.Activity in [.connecting, .paused, .held, .hanging, .awaitingOutput, .closing(.script, then: .close), .closed] {
            #expect(!Machine(activity: activity).wantsInput(stepsPending: false, outputCount: 0), "\(activity) reads")
        }
    }

    @Test("interest: read when input is wanted, write while output waits, nil when unchanged; a held connection keeps a read it had")
    func interest() {
        var machine = Machine()
        #expect(machine.interestChange(stepsPending: false, outputCount: 0, keepingHeldRead: false) == nil)
        #expect(machine.interestChange(stepsPending: false, outputCount: 10, keepingHeldRead: false) == [.read, .write])
        #expect(machine.interestChange(stepsPending: true, outputCount: 10, keepingHeldRead: false) == .write)
        machine.hold()
        #expect(machine.interestChange(stepsPending: false, outputCount: 0, keepingHeldRead: true) == nil, "the read is kept")
        #expect(machine.interestChange(stepsPending: false, outputCount: 0, keepingHeldRead: false) == [])
        machine.interestSet([])
        #expect(machine.interestChange(stepsPending: false, outputCount: 0, keepingHeldRead: true) == nil, "a read not watched for is not taken up")
        #expect(machine.interestChange(stepsPending: false, outputCount: 5, keepingHeldRead: true) == .write)
    }

    @Test("a held connection resumes once; only a running one holds")
    func holdAndResume() {
        var machine = Machine()
        #expect(machine.resume() == false)
        machine.hold()
        #expect(machine.isHeld)
        #expect(machine.resume() == true)
        #expect(machine.resume() == false)
        var paused = Machine(activity: .paused)
        paused.hold()
        #expect(paused.activity == .paused)
        var closing = Machine(activity: .closing(.script, then: .close))
        closing.hold()
        #expect(closing.activity == .closing(.script, then: .close))
    }

    @Test("a pause runs only from running, and its timer resumes only a connection still paused")
    func pause() {
        var machine = Machine()
        #expect(machine.pause() == true)
        #expect(machine.activity == .paused)
        #expect(machine.pause() == false)
        #expect(machine.pauseEnded() == true)
        #expect(machine.pauseEnded() == false)
        var closed = Machine(activity: .paused)
        _ = closed.close()
        #expect(closed.pauseEnded() == false, "a timer after the close does nothing")
        #expect(closed.isClosed)
    }

    @Test("the driver needs input after the input ended: the connection closes for the peer's end")
    func inputEndThenNeedInput() {
        var machine = Machine()
        machine.needInput()
        #expect(machine.activity == .running)
        machine.inputEnd()
        machine.needInput()
        #expect(machine.activity == .closing(.peerClosed, then: .close))
    }

    @Test("closing with output pending: nothing happens until it is all written, then the close")
    func closeAfterOutput() {
        var machine = Machine()
        machine.finish(.closeRequested)
        #expect(machine.stepsDone(allWritten: { false }) == .watch(keepingHeldRead: false))
        #expect(machine.activity == .closing(.closeRequested, then: .close))
        #expect(machine.stepsDone(allWritten: { true }) == .close(.closeRequested))
        #expect(machine.close() == .init(records: true))
    }

    @Test("the end of the input while output is pending: the close waits for the output, and a lingering close closes at once")
    func endOfFileWithOutputPending() {
        var machine = Machine()
        machine.finish(.defence("flood"), then: .linger)
        machine.inputEnd()
        #expect(machine.stepsDone(allWritten: { false }) == .watch(keepingHeldRead: false))
        #expect(machine.stepsDone(allWritten: { true }) == .close(.defence("flood")), "no lingering for an end already read")
        #expect(machine.sending == .open)
    }

    @Test("a lingering close: the sending side shuts, input is read and dropped, and the close follows for the reason")
    func linger() {
        var machine = Machine()
        machine.finish(.defence("flood"), then: .linger)
        #expect(machine.stepsDone(allWritten: { true }) == .linger(.defence("flood")))
        #expect(machine.activity == .lingering(.defence("flood")))
        #expect(machine.lingeringReason == .defence("flood"))
        #expect(machine.sending == .shutDown)
        #expect(machine.wantsInput(stepsPending: false, outputCount: 0))
        machine.finish(.script)
        #expect(machine.activity == .lingering(.defence("flood")), "a finish while lingering changes nothing")
        #expect(machine.close() == .init(records: true))
    }

    @Test("a close asked twice: the later reason counts, and a close asked to linger still lingers")
    func finishTwice() {
        var machine = Machine()
        machine.finish(.peerClosed, then: .linger)
        machine.finish(.script)
        #expect(machine.activity == .closing(.script, then: .linger))
        var plain = Machine()
        plain.finish(.peerClosed)
        plain.finish(.script, then: .linger)
        #expect(plain.activity == .closing(.script, then: .linger))
    }

    @Test("closed once: a second close, an error after the close, a finish, a hold or a fault do nothing")
    func afterClose() {
        var machine = Machine()
        #expect(machine.close() == .init(records: true))
        let closed = machine
        #expect(machine.close() == nil)
        machine.finish(.failed("write failed"))
        machine.hold()
        #expect(machine.resume() == false)
        machine.fault(.hang)
        machine.awaitOutput()
        #expect(machine.recordClose() == false)
        #expect(machine.outputWritten(allWritten: true) == false)
        #expect(machine.drainedNoticeDue(wasFull: true, hasRoom: true) == false)
        #expect(machine.activity == closed.activity)
        #expect(machine.isClosed)
    }

    @Test("a close recorded early (the transport stays open) is recorded once, and the close then records nothing")
    func recordedEarly() {
        var machine = Machine()
        #expect(machine.recordClose() == true)
        #expect(machine.recordClose() == false)
        machine.finish(.finished("transfer complete"))
        #expect(machine.close() == .init(records: false))
    }

    @Test("a half-close: sends are refused, and the sending side shuts once everything is written, once")
    func halfClose() {
        var machine = Machine()
        machine.fault(.halfClose)
        #expect(machine.sending == .shutAfterFlush)
        #expect(machine.send(count: 10) == .refuse)
        #expect(!machine.sendsPlainly)
        #expect(machine.flushed(allWritten: { false }) == false)
        #expect(machine.flushed(allWritten: { true }) == true)
        #expect(machine.sending == .shutDown)
        #expect(machine.flushed(allWritten: { true }) == false)
        machine.fault(.halfClose)
        #expect(machine.sending == .shutDown, "a second half-close does not reopen the flush")
    }

    @Test("allWritten is asked only when a half-close waits for it (it costs a transport call)")
    func flushAsksOnlyWhenNeeded() {
        var machine = Machine()
        var asked = false
        #expect(machine.flushed(allWritten: { asked = true; return true }) == false)
        #expect(!asked)
        _ = machine.stepsDone(allWritten: { asked = true; return true })
        #expect(!asked)
    }

    @Test("a truncate keeps the given bytes of the next send and closes after it; a new answer forgets it")
    func truncate() {
        var machine = Machine()
        machine.fault(.truncate(bytes: 5))
        #expect(machine.send(count: 3) == .truncate(keeping: 3))
        #expect(machine.activity == .closing(.script, then: .close))
        #expect(machine.shaping == .none)
        var forgotten = Machine()
        forgotten.fault(.truncateBody(after: 5))
        forgotten.newAnswer()
        #expect(forgotten.send(count: 30) == .queue)
        var lingering = Machine()
        lingering.fault(.truncate(bytes: 4))
        lingering.finish(.peerClosed, then: .linger)
        #expect(lingering.send(count: 30) == .truncate(keeping: 4))
        #expect(lingering.activity == .closing(.script, then: .linger))
    }

    @Test("a dribble sends a hundredth of a second's bytes at a time, and a single byte as it is")
    func dribble() {
        var machine = Machine()
        machine.fault(.dribble(bytesPerSecond: 1_000))
        #expect(machine.send(count: 100) == .dribble(chunk: 10, gap: .milliseconds(10)))
        #expect(machine.send(count: 1) == .queue)
        #expect(machine.shaping == .dribble(bytesPerSecond: 1_000), "the whole answer is dribbled")
        var slow = Machine()
        slow.fault(.dribble(bytesPerSecond: 50))
        #expect(slow.send(count: 3) == .dribble(chunk: 1, gap: .milliseconds(20)))
    }

    @Test("a hang stops answering and reading")
    func hang() {
        var machine = Machine()
        machine.fault(.hang)
        #expect(machine.activity == .hanging)
        #expect(!machine.wantsInput(stepsPending: false, outputCount: 0))
        #expect(machine.pause() == false)
        machine.fault(.reset)
        #expect(machine.activity == .hanging, "a reset is the connection's own close")
    }

    @Test("whenWritten: the connection waits for its output, runs the code once it is written, then runs on")
    func awaitingOutput() {
        var machine = Machine()
        machine.awaitOutput()
        #expect(machine.isAwaitingOutput)
        #expect(!machine.wantsInput(stepsPending: false, outputCount: 0))
        #expect(machine.outputWritten(allWritten: false) == false)
        #expect(machine.outputWritten(allWritten: true) == true)
        #expect(machine.activity == .running)
        #expect(machine.outputWritten(allWritten: true) == false)
    }

    @Test("the driver hears of drained output once: after a full output, or when owed, and only with room")
    func drainNotice() {
        var machine = Machine()
        #expect(machine.drainedNoticeDue(wasFull: false, hasRoom: true) == false)
        #expect(machine.drainedNoticeDue(wasFull: true, hasRoom: false) == false)
        #expect(machine.drainedNoticeDue(wasFull: true, hasRoom: true) == true)
        machine.outputLeftFull()
        #expect(machine.drainedNoticeDue(wasFull: false, hasRoom: false) == false)
        #expect(machine.drainNotice == .owed, "still owed until there is room")
        #expect(machine.drainedNoticeDue(wasFull: false, hasRoom: true) == true)
        #expect(machine.drainedNoticeDue(wasFull: false, hasRoom: true) == false)
    }

    @Test("a TLS switch with input buffered: the new transport is attached with the interest the connection has, which the switch leaves alone")
    func transportSwitch() {
        // STARTTLS's reply is being sent while the client's first TLS bytes wait: the connection is
        // held for its driver, keeping the read it had, with output pending.
        var machine = Machine()
        machine.interestSet([.read, .write])
        machine.hold()
        let before = machine
        #expect(machine.interest == [.read, .write], "what the new transport is attached with")
        #expect(machine.interestChange(stepsPending: false, outputCount: 0, keepingHeldRead: true) == .read)
        #expect(machine == before)
        #expect(machine.resume() == true)
        #expect(machine.wantsInput(stepsPending: false, outputCount: 0), "the buffered input is read once it runs again")
    }

    @Test("the state is no larger than the fields it replaced")
    func size() {
        // The connection held Activity (17 bytes: a close reason and a tag), a Boolean, Sending,
        // Shaping (9, aligned to 8), two Booleans and Interest in a row, 36 bytes with their padding,
        // and two more Booleans apart. The value keeps the one-byte facets in the activity's tail
        // padding: 33 bytes (the connection: 228 bytes before, 217 after).
        #expect(MemoryLayout<Machine>.size <= 36, "\(MemoryLayout<Machine>.size) bytes")
    }
}
