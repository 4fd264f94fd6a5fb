import MockServerCore
import MockServerTLS
import Testing

/// The TLS connection's state machine on its own: events in, actions out, no sockets and no OpenSSL.
@Suite("TLS state machine")
struct TLSStateMachineTests {
    typealias Machine = TLSStateMachine

    @Test("a handshake, then data, then the peer's close_notify behind bytes just read: the bytes first, the end on the next read")
    func handshakeDataEnd() {
        var machine = Machine()
        #expect(machine.read() == .wouldBlock)
        #expect(machine.write() == .wouldBlock)
        #expect(machine.handshakeDone() == .report)
        #expect(machine.read() == .decrypt)
        #expect(machine.write() == .encrypt)
        #expect(machine.inputEnded(.closeNotify, after: 12) == .bytesThenEnd)
        #expect(machine.endIsPending)
        #expect(!machine.ciphertextEnded)
        #expect(machine.read() == .endOfFile)
        #expect(!machine.endIsPending)
        // After the end, OpenSSL is asked again (it answers close_notify again).
        #expect(machine.read() == .decrypt)
        #expect(machine.state == .open(.init(input: .ended(.closeNotify))))
    }

    @Test("a truncation is remembered: the inner transport is not read again, even after a close_notify answer")
    func truncationSticks() {
        var machine = Machine(state: .open(.init()))
        #expect(machine.inputEnded(.ciphertextEnded, after: 0) == .endOfFile)
        #expect(machine.ciphertextEnded)
        #expect(machine.inputEnded(.closeNotify, after: 3) == .bytesThenEnd)
        #expect(machine.state == .open(.init(input: .endPending(.ciphertextEnded))))
        #expect(machine.ciphertextEnded)
    }

    @Test("no end is pending, and no ciphertext has ended, before the handshake is done")
    func nothingEndsBeforeOpen() {
        for state: Machine.State in [.handshaking(then: .stayOpen), .hanging, .failed(.init(reason: "x")), .closed] {
            var machine = Machine(state: state)
            #expect(!machine.endIsPending && !machine.ciphertextEnded)
            #expect(machine.inputEnded(.ciphertextEnded, after: 5) == .endOfFile)
            #expect(machine.state == state, "an end changed \(state)")
        }
    }

    @Test("the sending side ended during the handshake ends TLS once it is done; after it, TLS ends at once")
    func shutdownDuringHandshake() {
        var machine = Machine()
        #expect(machine.shutdownWrite() == .deferred)
        #expect(machine.state == .handshaking(then: .shutdownWrite))
        #expect(machine.handshakeDone() == .reportAndShutdownWrite)
        #expect(machine.shutdownWrite() == .endTLS)
        #expect(machine.outputFlushed() == true)
        #expect(machine.outputFlushed() == false, "the inner transport is shut once per shutdown")
        #expect(machine.state == .open(.init(output: .shut)))
    }

    @Test("without TLS to end (held, failed, closed), the inner transport's sending side is shut at once", arguments: [
        Machine.State.hanging, .failed(.init(reason: "x")), .closed,
    ])
    func shutdownWithoutTLS(state: Machine.State) {
        var machine = Machine(state: state)
        #expect(machine.shutdownWrite() == .shutInner)
        #expect(machine.state == state)
    }

    @Test("a flush still shuts the sending side after a failure that came while it waited")
    func failureKeepsPendingShutdown() {
        var machine = Machine(state: .open(.init(queued: .read)))
        #expect(machine.shutdownWrite() == .endTLS)
        machine.fail("the TLS record layer failed")
        #expect(machine.state == .failed(.init(reason: "the TLS record layer failed", output: .shutdownWhenFlushed, queued: .read)))
        #expect(machine.outputFlushed() == true)
        #expect(machine.read() == .fail("the TLS record layer failed"))
        #expect(machine.write() == .fail("the TLS record layer failed"))
    }

    @Test("a reset fault closes with an RST whatever the connection asks, and a later failure keeps it")
    func resetSticks() {
        var machine = Machine()
        machine.fail("reset after the ClientHello", ending: .reset)
        machine.fail("another reason")
        #expect(machine.closing(reset: false) == .init(endsTLS: false, reset: true))
        machine.closed()
        #expect(machine.isClosed)
        #expect(machine.read() == .endOfFile)
        #expect(machine.write() == .closed)
    }

    @Test("closing: TLS ends only when open and not reset", arguments: [
        (Machine.State.open(.init()), false, Machine.CloseAction(endsTLS: true, reset: false)),
        (.open(.init()), true, .init(endsTLS: false, reset: true)),
        (.handshaking(then: .stayOpen), false, .init(endsTLS: false, reset: false)),
        (.hanging, true, .init(endsTLS: false, reset: true)),
        (.failed(.init(reason: "x")), false, .init(endsTLS: false, reset: false)),
        (.closed, false, .init(endsTLS: false, reset: false)),
    ])
    func closing(state: Machine.State, reset: Bool, action: Machine.CloseAction) {
        #expect(Machine(state: state).closing(reset: reset) == action)
    }

    @Test("the handshake timer fails a running or held handshake, with the reason, and nothing else")
    func handshakeTimeout() {
        #expect(Machine().handshakeTimedOut(after: .seconds(2)) == "no handshake within 2.0 seconds")
        #expect(Machine(state: .hanging).handshakeTimedOut(after: .seconds(2)) == "no handshake within 2.0 seconds: the handshake fault hang held it")
        for state: Machine.State in [.open(.init()), .failed(.init(reason: "x")), .closed] {
            #expect(Machine(state: state).handshakeTimedOut(after: .seconds(2)) == nil)
        }
    }

    @Test("interest: read during the handshake, the connection's once open, read only after a failure, write while ciphertext waits")
    func interest() {
        let both: Interest = [.read, .write]
        #expect(Machine().interest(wanted: .write, hasPendingOutput: false) == .read)
        #expect(Machine(state: .hanging).interest(wanted: [], hasPendingOutput: true) == both)
        #expect(Machine(state: .open(.init())).interest(wanted: .write, hasPendingOutput: false) == .write)
        #expect(Machine(state: .open(.init())).interest(wanted: [], hasPendingOutput: false) == [])
        #expect(Machine(state: .failed(.init(reason: "x"))).interest(wanted: both, hasPendingOutput: false) == .read)
        #expect(Machine(state: .closed).interest(wanted: .write, hasPendingOutput: true) == .write)
    }

    @Test("a loop callback is queued once at a time, only while open or failed, and runs unless the transport closed")
    func callbacks() {
        var machine = Machine()
        #expect(machine.queue(.read) == false, "nothing is queued during the handshake")
        _ = machine.handshakeDone()
        #expect(machine.queue(.read) == true)
        #expect(machine.queue(.read) == false)
        #expect(machine.queue(.flush) == true)
        #expect(machine.run(.read) == true)
        #expect(machine.queue(.read) == true)
        machine.fail("x")
        #expect(machine.queue(.flush) == false, "the flush queued while open is still queued")
        #expect(machine.run(.flush) == true)
        #expect(machine.queue(.flush) == true)
        machine.closed()
        #expect(machine.run(.read) == false)
        #expect(machine.queue(.flush) == false)
    }

    @Test("a held handshake reads nothing and writes nothing until it fails")
    func hanging() {
        var machine = Machine()
        machine.hang()
        #expect(!machine.isHandshaking)
        #expect(machine.read() == .wouldBlock)
        #expect(machine.write() == .wouldBlock)
        machine.fail("the peer closed the connection while the handshake hung (handshake fault hang)")
        #expect(machine.closing(reset: false) == .init(endsTLS: false, reset: false))
    }
}

/// What the connection hears of the inner transport's readiness, in each state.
@Suite("TLS state machine: readiness for the connection")
struct TLSReadinessTests {
    typealias Machine = TLSStateMachine

    /// The readiness `machine` (now in its state, `before` when the readiness came) forwards, as
    /// `(readable, writable, failed)`; whether it asked for the buffered input.
    private func forwarded(_ machine: Machine, before: Machine.State, _ readiness: Readiness, drained: Bool = false, wantsWrite: Bool = false,
                           buffered: Bool = false) -> (forwarded: [Bool]?, asked: Bool) {
        var asked = false
        let result = machine.readinessForConnection(readiness, before: before, drained: drained, wantsWrite: wantsWrite) {
            asked = true
            return buffered
        }
        return (result.map { [$0.readable, $0.writable, $0.failed] }, asked)
    }

    @Test("during the handshake the connection hears only of a broken peer")
    func handshaking() {
        let machine = Machine()
        #expect(forwarded(machine, before: machine.state, Readiness(readable: true, writable: true)).forwarded == nil)
        #expect(forwarded(machine, before: machine.state, Readiness(readable: true, writable: false, failed: true)).forwarded == [true, false, true])
        let held = Machine(state: .hanging)
        #expect(forwarded(held, before: .hanging, Readiness(readable: true, writable: true)).forwarded == nil)
        #expect(forwarded(held, before: .handshaking(then: .stayOpen), Readiness(readable: true, writable: false)).forwarded == nil)
    }

    @Test("the handshake's end: the connection writes what it held and reads what came with it, asked only then")
    func handshakeEnds() {
        let open = Machine(state: .open(.init()))
        let before = Machine.State.handshaking(then: .stayOpen)
        let result = forwarded(open, before: before, Readiness(readable: false, writable: false), wantsWrite: true, buffered: true)
        #expect(result.forwarded == [true, true, false] && result.asked)
        #expect(forwarded(open, before: before, Readiness(readable: false, writable: true)).forwarded == nil)
        #expect(forwarded(open, before: .open(.init()), Readiness(readable: false, writable: false), buffered: true).asked == false)
    }

    @Test("a failed handshake or hold: the connection reads the failure")
    func failure() {
        let failed = Machine(state: .failed(.init(reason: "x")))
        #expect(forwarded(failed, before: .handshaking(then: .stayOpen), Readiness(readable: true, writable: true)).forwarded == [true, false, false])
        #expect(forwarded(failed, before: .hanging, Readiness(readable: false, writable: false)).forwarded == [true, false, false])
    }

    @Test("once open: drained ciphertext is a writable readiness for a connection that does not watch for writing")
    func open() {
        let open = Machine(state: .open(.init()))
        #expect(forwarded(open, before: open.state, Readiness(readable: false, writable: true), drained: true).forwarded == [false, true, false])
        #expect(forwarded(open, before: open.state, Readiness(readable: false, writable: true), drained: false).forwarded == nil)
        #expect(forwarded(open, before: open.state, Readiness(readable: true, writable: false), drained: false, wantsWrite: true).forwarded == [true, false, false])
        #expect(forwarded(open, before: open.state, Readiness(readable: false, writable: true), drained: false, wantsWrite: true).forwarded == [false, true, false])
    }
}
