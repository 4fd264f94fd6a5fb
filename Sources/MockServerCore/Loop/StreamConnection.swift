/// One accepted byte stream on the loop: it reads, writes with backpressure, and carries out the
/// steps its ``StreamDriver`` gives it (sends, pauses, faults, driver code), in order.
///
/// The connection knows no protocol. It gives the driver every byte that arrives and asks it for
/// the next steps only when the previous ones have all run, so one answer is finished before the
/// next input is looked at. While it pauses, waits for its driver, hangs or has much output
/// waiting, it stops reading, so a fast or hostile peer cannot make it buffer without bound.
package final class StreamConnection: LoopHandler {
    /// What the connection is doing.
    private enum Activity: Equatable {
        /// Running steps, or reading input when there are none.
        case running
        /// A ``StreamStep/pause(_:)`` timer is pending.
        case paused
        /// The driver waits for something (a transfer, an answer computed elsewhere).
        case held
        /// ``StreamFault/hang``: nothing more is answered.
        case hanging
        /// No more steps or input: the connection closes once its output is sent.
        case closing(CloseReason)
        case closed
    }

    /// The sending side of the socket.
    private enum Sending {
        case open
        /// ``StreamFault/halfClose``: no more output is accepted; the sending side is shut down
        /// once what was queued has been written.
        case shutAfterFlush
        case shutDown
    }

    /// How the sends of the current answer are shaped.
    private enum Shaping {
        case none
        case truncate(Int)
        case dribble(bytesPerSecond: Int)
    }

    /// The connection number, as in the transcript.
    package let id: Int
    /// The peer's address, when the system could tell it.
    package let peer: SocketAddress?
    /// The loop this connection lives on.
    package unowned let loop: EventLoop
    private let transport: any StreamTransport
    private let driver: any StreamDriver
    private var output = OutputBuffer()
    private var steps: [StreamStep] = []
    private var nextStep = 0
    private var activity = Activity.running
    private var sending = Sending.open
    private var shaping = Shaping.none
    private var inputEnded = false
    private var interest: Interest = .read

    /// Output above this many bytes stops the reading of further input until it drains.
    private static let highWater = 1 << 20

    /// A connection over an accepted socket.
    package convenience init(socket: Socket, loop: EventLoop, driver: any StreamDriver) {
        self.init(transport: SocketTransport(socket), loop: loop, driver: driver)
    }

    /// A connection over `transport` (a socket, or bytes in memory from a client in this process),
    /// numbered `id` when its number was taken already.
    package init(transport: any StreamTransport, loop: EventLoop, driver: any StreamDriver, id: Int? = nil) {
        self.id = id ?? loop.makeConnectionID()
        self.transport = transport
        self.loop = loop
        self.driver = driver
        self.peer = transport.peerAddress
        self.localAddress = transport.localAddress
    }

    /// The address the connection was accepted on.
    package let localAddress: SocketAddress?

    /// Whether the connection has closed.
    package var isClosed: Bool { activity == .closed }

    /// Where this connection's messages go.
    package var logger: MockServerLogger { loop.environment.logger }

    /// Records `event` in the server's transcript as this connection's.
    package func record(_ event: TranscriptEvent) {
        loop.environment.record(event, connection: id)
    }

    /// Logs a message tagged with this connection.
    package func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        loop.environment.logger.log(level, message(), connection: id)
    }

    /// Registers the connection and runs the driver's opening steps.
    package func start() throws {
        try transport.attach(self, to: loop, interest: .read)
        let peerText = transport.peerDescription
        record(.connected(peer: peerText))
        log(.debug, "connected from \(peerText)")
        begin(driver.opened(self))
        drive()
    }

    package func handle(_ readiness: Readiness) {
        if readiness.readable && (wantsInput || readiness.failed) {
            readInput()
        } else if readiness.readable {
            // Input came while none is wanted: stop watching for it until it is (see updateInterest).
            updateInterest(keepingHeldRead: false)
        }
        if activity != .closed {
            drive()
        }
        if activity != .closed && readiness.failed {
            close(.peerVanished)
        }
    }

    // MARK: For drivers

    /// Queues bytes for the peer, shaped by a pending truncate or dribble. Nothing is queued once
    /// the sending side is shut (``StreamFault/halfClose``).
    package func send(_ bytes: [UInt8]) {
        guard case .open = sending else {
            log(.debug, "not sent after «half-close»: \(bytes.count) bytes")
            return
        }
        switch shaping {
        case .truncate(let limit):
            shaping = .none
            let kept = Array(bytes.prefix(limit))
            queue(kept)
            activity = .closing(.script)
            endSteps()
        case .dribble(let rate) where bytes.count > 1:
            // Small sends with pauses between them, in place of the rest of this send.
            let chunk = max(1, rate / 100)
            let gap = Duration.nanoseconds(Int64(chunk) * 1_000_000_000 / Int64(rate))
            var pieces: [StreamStep] = []
            var offset = chunk
            while offset < bytes.count {
                pieces.append(.pause(gap))
                let piece = Array(bytes[offset..<min(offset + chunk, bytes.count)])
                pieces.append(.run { [unowned self] in self.send(piece) })
                offset += chunk
            }
            steps.insert(contentsOf: pieces, at: nextStep)
            queue(Array(bytes.prefix(chunk)))
        default:
            queue(bytes)
        }
    }

    /// Stops running steps until ``resume(with:)``: the driver waits for something.
    package func hold() {
        if activity == .running { activity = .held }
    }

    /// Runs again after ``hold()`` or a ``DriverDecision/wait``: first `steps` (a new answer, when
    /// given), then whatever was left of the current list.
    package func resume(with steps: [StreamStep]? = nil) {
        guard activity == .held else { return }
        activity = .running
        if let steps { begin(steps) }
        drive()
    }

    /// Skips the rest of the current steps.
    package func endSteps() {
        nextStep = steps.count
    }

    /// Runs `inserted` next, before the rest of the current steps.
    package func insertSteps(_ inserted: [StreamStep]) {
        steps.replaceSubrange(nextStep..<nextStep, with: inserted)
    }

    /// Replaces the rest of the current steps with `replacement`.
    package func replaceRemainingSteps(with replacement: [StreamStep]) {
        steps = replacement
        nextStep = 0
    }

    /// Writes what is queued now, as far as the socket takes it (before a transfer starts, say).
    package func flushOutput() {
        flush()
    }

    // MARK: Running

    private var wantsInput: Bool {
        activity == .running && !inputEnded && nextStep >= steps.count && output.count < Self.highWater
    }

    private func readInput() {
        switch transport.read(into: loop.readBuffer) {
        case .bytes(let count):
            driver.received(UnsafeRawBufferPointer(rebasing: loop.readBuffer[..<count]), on: self)
        case .endOfFile:
            inputEnded = true
        case .wouldBlock:
            break
        case .failed(let error):
            close(error.isPeerGone ? .peerVanished : .failed(error.description))
        }
    }

    /// A new answer: its steps, with the shaping of the previous one forgotten.
    private func begin(_ list: [StreamStep]) {
        shaping = .none
        steps = list
        nextStep = 0
    }

    /// Carries out pending steps and asks the driver for more until something must be waited for.
    private func drive() {
        decide: while activity == .running {
            if nextStep < steps.count {
                let step = steps[nextStep]
                nextStep += 1
                perform(step)
                continue
            }
            if output.count >= Self.highWater { break }
            switch driver.next(on: self, inputEnded: inputEnded) {
            case .steps(let list):
                begin(list)
            case .needInput:
                if inputEnded { activity = .closing(.peerClosed) }
                break decide
            case .wait:
                activity = .held
            case .finish(let reason):
                activity = .closing(reason)
            }
        }
        guard activity != .closed else { return }
        flush()
        guard activity != .closed else { return }
        if case .shutAfterFlush = sending, output.isEmpty {
            transport.shutdownWrite()
            sending = .shutDown
        }
        if case .closing(let reason) = activity, output.isEmpty {
            close(reason)
            return
        }
        updateInterest(keepingHeldRead: activity == .held)
    }

    private func perform(_ step: StreamStep) {
        switch step {
        case .send(let bytes):
            send(bytes)
        case .pause(let duration):
            record(.paused(duration))
            flush()
            guard activity == .running else { return }
            activity = .paused
            updateInterest()
            loop.schedule(after: duration) { [weak self] in
                guard let self, self.activity == .paused else { return }
                self.activity = .running
                self.drive()
            }
        case .close(let reason):
            activity = .closing(reason)
            endSteps()
        case .fault(let fault):
            perform(fault)
        case .run(let body):
            body()
        }
    }

    private func perform(_ fault: StreamFault) {
        switch fault {
        case .reset:
            flush()
            guard activity != .closed else { return }
            close(.resetByScript, reset: true)
        case .halfClose:
            if case .open = sending { sending = .shutAfterFlush }
        case .hang:
            flush()
            guard activity != .closed else { return }
            activity = .hanging
            endSteps()
            log(.debug, "hanging: no further answers")
        case .truncate(let bytes):
            shaping = .truncate(bytes)
        case .dribble(let rate):
            shaping = .dribble(bytesPerSecond: rate)
        }
    }

    private func queue(_ bytes: [UInt8]) {
        output.append(bytes)
        record(.output(bytes))
    }

    private func flush() {
        guard !output.isEmpty else { return }
        if let error = output.write({ transport.write($0) }) {
            close(error.isPeerGone ? .peerVanished : .failed(error.description))
        }
    }

    /// Watches for what the connection wants now: input when it reads, writability when output waits.
    ///
    /// With `keepingHeldRead`, a connection held for its driver's answer keeps watching for input it
    /// already watched for: the answer usually comes in the same turn of the loop, and dropping and
    /// restoring the interest would cost two system calls per request. Input that does come meanwhile
    /// is not read; ``handle(_:)`` then drops the interest.
    private func updateInterest(keepingHeldRead: Bool = false) {
        var wanted: Interest = []
        if wantsInput || (keepingHeldRead && interest.contains(.read)) { wanted.insert(.read) }
        if !output.isEmpty { wanted.insert(.write) }
        guard wanted != interest else { return }
        do {
            try transport.setInterest(wanted, on: loop)
            interest = wanted
        } catch {
            close(.failed("\(error)"))
        }
    }

    package func close(_ reason: CloseReason) {
        close(reason, reset: false)
    }

    private func close(_ reason: CloseReason, reset: Bool) {
        guard activity != .closed else { return }
        activity = .closed
        driver.closed(self, reason: reason)
        transport.detach(from: loop)
        transport.close(reset: reset)
        output.removeAll()
        steps = []
        record(.closed(reason))
        log(.debug, "closed (\(reason))")
    }
}
