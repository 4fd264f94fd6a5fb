/// One accepted byte stream on the loop: it reads, writes with backpressure, and carries out the
/// steps its ``StreamDriver`` gives it (sends, pauses, faults, driver code), in order.
///
/// The connection knows no protocol. It gives the driver every byte that arrives and asks it for
/// the next steps only when the previous ones have all run, so one answer is finished before the
/// next input is looked at. While it pauses, waits for its driver, hangs or has much output
/// waiting, it stops reading, so a fast or hostile peer cannot make it buffer without bound.
package final class StreamConnection: LoopHandler {
    /// The connection number, as in the transcript.
    package let id: Int
    /// Which of the server's kinds of connection this is, for the transcript.
    package let channel: Transcript.Channel
    /// Whether what the connection sends is recorded in the transcript (``Transcript.Event/output(_:)``).
    /// A driver whose bytes are binary framing (HTTP/2) turns it off and records readable entries itself.
    /// Read for every send, on the loop's thread alone: no dynamic exclusivity checks (see below).
    // callgrind http 500 2500: 21,250 vs 24,017 instructions an answer with every hot-path @exclusivity(unchecked) off (this connection's five fields: 20 checks an answer).
    @exclusivity(unchecked) package var recordsOutput: Bool
    /// Where an outbound connection goes, while it is being made (kept apart from the state, whose
    /// cases then carry nothing that needs a retain on the hot path).
    private var connectTarget: NetworkAddress?
    /// Code that a ``StreamStep/whenWritten(_:)`` runs once the output is written.
    private var afterOutput: (() -> Void)?
    /// The peer's address, when the system could tell it.
    package var peer: NetworkAddress? { transport.peerAddress }
    /// The loop this connection lives on. The loop keeps every connection it runs and closes them
    /// all before it ends, so it outlives them.
    /// Kept: holds the loop without a reference count: a checked `unowned` reference costs a
    /// strong retain and release at every use, several times a unit (not measured in session 28).
    package unowned(unsafe) let loop: EventLoop
    /// The transcript, logger and connection numbers of the loop's server.
    private let environment: ServerEnvironment
    /// A `var` only so that ``wrapTransport(_:)`` can put TLS around it mid-connection (STARTTLS).
    private var transport: any StreamTransport
    private let driver: any StreamDriver
    // The state below is read and written on every unit, only on the loop's thread and never
    // through two overlapping accesses (no `inout` of one of them is held across a call that could
    // reach another), so the runtime's dynamic exclusivity checks, a thread-local lookup each, are
    // turned off for them: they cost about a tenth of a line protocol's reply.
    // callgrind http 500 2500: 21,250 vs 24,017 instructions an answer with every hot-path @exclusivity(unchecked) off (this connection's five fields: 20 checks an answer).
    @exclusivity(unchecked) private var output = OutputBuffer()
    // callgrind http 500 2500: 21,250 vs 24,017 instructions an answer with every hot-path @exclusivity(unchecked) off (this connection's five fields: 20 checks an answer).
    @exclusivity(unchecked) private var steps: [StreamStep] = []
    // callgrind http 500 2500: 21,250 vs 24,017 instructions an answer with every hot-path @exclusivity(unchecked) off (this connection's five fields: 20 checks an answer).
    @exclusivity(unchecked) private var nextStep = 0
    /// Where the connection is: what it does, its two sides, its shaping, its interest. The
    /// decisions are the value's (``StreamConnectionState``); the connection carries them out.
    // callgrind http 500 2500: 21,250 vs 24,017 instructions an answer with every hot-path @exclusivity(unchecked) off (this connection's five fields: 20 checks an answer).
    @exclusivity(unchecked) private var state = StreamConnectionState()

    /// Output above this many bytes stops the reading of further input until it drains.
    private static var highWater: Int { StreamConnectionState.highWater }

    /// The output a driver that sends outside its steps lets wait at most, give or take one send:
    /// past it, it stops producing until ``StreamDriver/outputDrained(on:)`` (see ``hasOutputRoom``).
    package static let outputRoom = 256 * 1024

    /// Whether less than ``outputRoom`` bytes wait to be written: a driver that sends outside its
    /// steps (HTTP/2's streams, a relay) produces more only then, and otherwise waits for
    /// ``StreamDriver/outputDrained(on:)``.
    package var hasOutputRoom: Bool { output.count < Self.outputRoom }

    /// A connection over an accepted socket.
    package convenience init(socket: Socket, loop: EventLoop, driver: any StreamDriver, id: Int? = nil,
                             channel: Transcript.Channel = .main, recordsOutput: Bool = true) {
        self.init(transport: loop.environment.transport(for: socket), loop: loop, driver: driver, id: id, channel: channel, recordsOutput: recordsOutput)
    }

    /// Starts an outbound connection to `target` whose connection, once made, runs `driver`.
    ///
    /// - Throws: ``SocketCallError`` when the attempt cannot even start; a refusal later closes the
    ///   connection (the driver hears of it in ``StreamDriver/closed(_:reason:)``), recording nothing.
    @discardableResult
    package static func connect(to target: NetworkAddress, loop: EventLoop, driver: any StreamDriver, id: Int? = nil,
                                channel: Transcript.Channel = .main, recordsOutput: Bool = true) throws -> StreamConnection {
        let socket = try Socket.connecting(to: target)
        let connection = StreamConnection(socket: socket, loop: loop, driver: driver, id: id, channel: channel, recordsOutput: recordsOutput)
        do {
            try connection.transport.attach(connection, to: loop, interest: .write)
        } catch {
            socket.close()
            throw error
        }
        // Watching for writability, and recording nothing of a connection that was never made.
        connection.state = .connecting()
        connection.connectTarget = target
        return connection
    }

    /// A connection over `transport` (a socket, or bytes in memory from a client in this process),
    /// numbered `id` when its number was taken already.
    ///
    /// - Parameters:
    ///   - channel: the transcript channel its events go to.
    ///   - recordsOutput: whether its sends are recorded in the transcript (not for bulk data).
    package init(transport: any StreamTransport, loop: EventLoop, driver: any StreamDriver, id: Int? = nil,
                 channel: Transcript.Channel = .main, recordsOutput: Bool = true) {
        self.id = id ?? loop.makeConnectionID()
        self.channel = channel
        self.recordsOutput = recordsOutput
        self.transport = transport
        self.loop = loop
        self.environment = loop.environment
        self.driver = driver
    }

    /// The address the connection was accepted on.
    package var localAddress: NetworkAddress? { transport.localAddress }

    /// Whether the connection has closed.
    package var isClosed: Bool { state.isClosed }

    /// Where this connection's messages go.
    package var logger: MockServerLogger { environment.logger }

    /// Records `event` in the server's transcript as this connection's.
    package func record(_ event: __owned Transcript.Event) {
        environment.record(event, connection: id, channel: channel)
    }

    /// Records an input of `unit` that `response` answered, as `record(.input(unit, response:))`
    /// does, without making the event when the transcript needs none (the usual case).
    package func recordInput(_ unit: InputUnit, response: String?) {
        environment.recordInput(unit, response: response, connection: id, channel: channel)
    }

    /// Records an input that came on `exchange`, one of several the connection carries (an HTTP/2
    /// stream, say): the entry carries the exchange's protocol and stream.
    package func record(_ event: __owned Transcript.Event, exchange: Transcript.Exchange) {
        environment.record(event, connection: id, channel: channel, exchange: exchange)
    }

    /// Records the connection as closed for `reason` now, although its transport stays open (to
    /// wait for the peer's end, say); the close that follows records nothing.
    package func recordClosed(_ reason: Transcript.CloseReason) {
        guard state.recordClose() else { return }
        record(.closed(reason))
    }

    /// The bytes the transport has written but the peer has not acknowledged, when it can tell.
    package var unacknowledgedBytes: Int? { transport.unacknowledgedBytes }

    /// Logs a message tagged with this connection.
    package func log(_ level: MockServerLogger.Level, _ message: @autoclosure () -> String) {
        environment.logger.log(level, message(), connection: id)
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
        if let reason = state.lingeringReason {
            dropLingeringInput(reason)
            return
        }
        let wasFull = !hasOutputRoom
        defer {
            if state.drainedNoticeDue(wasFull: wasFull, hasRoom: hasOutputRoom) {
                driver.outputDrained(on: self)
            }
        }
        if state.isConnecting, let target = connectTarget {
            connectionAttempted(to: target, readiness)
            return
        }
        if state.isAwaitingOutput, readiness.writable || readiness.failed {
            flushAndShut()
            if state.outputWritten(allWritten: allWritten) {
                let body = afterOutput
                afterOutput = nil
                body?()
            }
        }
        var readBytes = false
        if readiness.readable && (wantsInput || readiness.failed) {
            readBytes = readInput()
        } else if readiness.readable, !state.isAwaitingOutput {
            // Input came while none is wanted: stop watching for it until it is (see updateInterest).
            updateInterest(keepingHeldRead: false)
        }
        if !isClosed {
            drive()
        }
        // A peer gone in both directions may have left input behind: it is read to its end (the
        // readiness repeats) before the connection closes.
        if !isClosed && readiness.failed && !readBytes {
            close(.peerVanished)
        }
    }

    /// An outbound connection attempt ended: the connection runs, or closes without a record.
    private func connectionAttempted(to target: NetworkAddress, _ readiness: Readiness) {
        guard readiness.writable || readiness.failed else { return }
        if let error = transport.connectionError(to: target) {
            log(.warning, "connection to \(target) not made: \(error)")
            close(.failed("\(error)"))
            return
        }
        state.connected()
        connectTarget = nil
        record(.connected(peer: target.description))
        log(.debug, "connected to \(target)")
        begin(driver.opened(self))
        drive()
    }

    // MARK: For drivers

    /// Queues bytes for the peer, shaped by a pending truncate or dribble. Nothing is queued once
    /// the sending side is shut (``StreamFault/halfClose``).
    package func send(_ bytes: [UInt8]) {
        switch state.send(count: bytes.count) {
        case .queue:
            queue(bytes)
        case .refuse:
            log(.debug, "not sent after «half-close»: \(bytes.count) bytes")
        case .truncate(let kept):
            queue(Array(bytes.prefix(kept)))
            endSteps()
        case .dribble(let chunk, let gap):
            // Small sends with pauses between them, in place of the rest of this send.
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
        }
    }

    /// Stops running steps until ``resume(with:)``: the driver waits for something.
    package func hold() {
        state.hold()
    }

    /// Runs again after ``hold()`` or a ``DriverDecision/wait``: first `steps` (a new answer, when
    /// given), then whatever was left of the current list.
    package func resume(with steps: [StreamStep]? = nil) {
        guard state.resume() else { return }
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

    /// The transport the connection reads and writes through now (TLS's, after STARTTLS).
    package var currentTransport: any StreamTransport { transport }

    /// Puts another transport around the current one from now on (TLS after STARTTLS's reply):
    /// the new one takes over the loop's readiness with the interest the connection has now.
    ///
    /// - Throws: what `wrap` throws, or the loop's error registering the new transport; the
    ///   connection is closed then.
    package func wrapTransport(_ wrap: (any StreamTransport) throws -> any StreamTransport) throws {
        transport.detach(from: loop)
        do {
            transport = try wrap(transport)
            try transport.attach(self, to: loop, interest: state.interest)
        } catch {
            close(.failed("\(error)"))
            throw error
        }
    }

    /// Runs the connection under `conditions` from now on, in place of any it had (a response's
    /// own; see ``ConditionedTransport/change(to:)``); `nil` lifts them. A connection that had none
    /// gets them around its current transport (above TLS, on a TLS connection). In-process
    /// connections, which have no network, are left as they are.
    ///
    /// - Returns: the conditions it had, to put back later; `nil` when it had none.
    @discardableResult
    package func applyConditions(_ conditions: NetworkConditions?) -> NetworkConditions? {
        guard !isClosed, !(transport is MemoryTransport) else { return nil }
        if let conditioned = transport.conditioned {
            let previous = conditioned.currentConditions
            conditioned.change(to: conditions ?? NetworkConditions())
            return previous
        }
        if let conditions {
            log(.debug, "network conditions from here on: \(conditions)")
            try? wrapTransport { ConditionedTransport($0, conditions: conditions) }
        }
        return nil
    }

    /// Runs the connection under `conditions` from now on, drawn with their probability (a draw
    /// that misses leaves it as it is); `nil` lifts any it has. A script's `{"conditions": …}`, a
    /// response's own.
    ///
    /// - Returns: the conditions the connection had before (`.some(nil)`: none), or `nil` when
    ///   the draw missed and nothing changed.
    @discardableResult
    package func runUnder(_ conditions: NetworkConditions?) -> NetworkConditions?? {
        guard let conditions else { return .some(applyConditions(nil)) }
        var random = SystemRandomNumberGenerator()
        guard let drawn = conditions.drawn(using: &random) else { return nil }
        return .some(applyConditions(drawn))
    }

    /// Writes what is queued now, as far as the socket takes it (before a transfer starts, say).
    package func flushOutput() {
        flush()
    }

    /// Sends bytes that come from outside the driver's steps (the other side of a relay): queued
    /// like ``send(_:)``, written as far as the socket takes them now, and the rest when it is writable.
    package func sendNow(_ bytes: [UInt8]) {
        send(bytes)
        flushAndShut()
        guard !isClosed else { return }
        if !hasOutputRoom { state.outputLeftFull() }
        updateInterest(keepingHeldRead: state.isHeld)
    }

    /// Closes for `reason` once everything queued has been written (a relay whose other side ended),
    /// whatever the driver was doing; no further steps run.
    package func finishAfterOutput(_ reason: Transcript.CloseReason) {
        finishAfterOutput(reason, then: .close)
    }

    private func finishAfterOutput(_ reason: Transcript.CloseReason, then ending: StreamConnectionState.Ending) {
        guard !isClosed else { return }
        endSteps()
        state.finish(reason, then: ending)
        drive()
    }

    /// Like ``finishAfterOutput(_:)``, but once the output is written the sending side is shut and
    /// what the peer still sends is read and dropped until it ends its side (or ``lingerTime``
    /// passes): closing a socket with unread input sends an RST, which can destroy what the peer
    /// has received and not yet read (the end of a response, a GOAWAY).
    package func finishAfterOutputLingering(_ reason: Transcript.CloseReason) {
        finishAfterOutput(reason, then: .linger)
    }

    /// The longest a connection lingers for its peer's end after a lingering close.
    package static let lingerTime: Duration = .seconds(2)

    // MARK: Running

    /// Whether everything queued has left: the connection's buffer, and the transport's own.
    private var allWritten: Bool { output.isEmpty && !transport.hasPendingOutput }

    private var wantsInput: Bool {
        state.wantsInput(stepsPending: nextStep < steps.count, outputCount: output.count)
    }

    /// Reads what has arrived; `true` when that was bytes.
    private func readInput() -> Bool {
        switch transport.read(into: loop.readBuffer) {
        case .bytes(let count):
            driver.received(UnsafeRawBufferPointer(rebasing: loop.readBuffer[..<count]), on: self)
            return true
        case .endOfFile:
            state.inputEnd()
        case .wouldBlock:
            break
        case .failed(let error):
            close(error.isPeerGone ? .peerVanished : .failed(error.description))
        }
        return false
    }

    /// A new answer: its steps, with the shaping of the previous one forgotten.
    private func begin(_ list: [StreamStep]) {
        state.newAnswer()
        steps = list
        nextStep = 0
    }

    /// Carries out pending steps and asks the driver for more until something must be waited for.
    private func drive() {
        decide: while state.isRunning {
            if nextStep < steps.count {
                let step = steps[nextStep]
                nextStep += 1
                perform(step)
                continue
            }
            if output.count >= Self.highWater {
                // Written as far as the socket takes it now: once below the mark, the driver is asked
                // on. A driver that answers without new input (a large IMAP FETCH or POP3 RETR made a
                // part at a time) would otherwise wait, the output all written, for input that does not come.
                flush()
                if isClosed { return }
                if output.count >= Self.highWater { break }
            }
            if !steps.isEmpty {
                // The steps have all run: neither they nor the bytes they sent are kept while the
                // connection waits (an idle connection would hold its last answer).
                steps = []
                nextStep = 0
            }
            let decision = driver.next(on: self, inputEnded: state.inputEnded)
            // The driver may have closed the connection itself.
            if isClosed { return }
            switch decision {
            case .steps(let list):
                begin(list)
            case .needInput:
                state.needInput()
                break decide
            case .wait:
                state.hold()
            case .finish(let reason):
                state.finish(reason)
            }
        }
        guard !isClosed else { return }
        flushAndShut()
        guard !isClosed else { return }
        switch state.stepsDone(allWritten: { allWritten }) {
        case .watch(let keepingHeldRead):
            updateInterest(keepingHeldRead: keepingHeldRead)
        case .close(let reason):
            close(reason)
        case .linger(let reason):
            linger(reason)
        }
    }

    /// Shuts the sending side and reads (dropping) the peer's input until it ends, for at most
    /// ``lingerTime``; then closes for `reason` (the state lingers already).
    private func linger(_ reason: Transcript.CloseReason) {
        transport.shutdownWrite()
        do {
            try transport.setInterest(.read, on: loop)
            state.interestSet(.read)
        } catch {
            close(reason)
            return
        }
        loop.schedule(after: Self.lingerTime) { [weak self] in self?.close(reason) }
    }

    /// Reads and drops what a lingering connection's peer sends; closes at its end.
    private func dropLingeringInput(_ reason: Transcript.CloseReason) {
        while true {
            switch transport.read(into: loop.readBuffer) {
            case .bytes: continue
            case .wouldBlock: return
            case .endOfFile, .failed: close(reason); return
            }
        }
    }

    /// Writes what is queued, and shuts the sending side once it is all written after a half-close.
    private func flushAndShut() {
        flush()
        guard !isClosed else { return }
        if state.flushed(allWritten: { allWritten }) {
            transport.shutdownWrite()
        }
    }

    private func perform(_ step: StreamStep) {
        switch step {
        case .send(let bytes):
            send(bytes)
        case .sendParts(let parts):
            guard state.sendsPlainly else {
                // Shaped (or refused) as one send: joined, a copy made only under a fault.
                send(Array(parts.joined()))
                return
            }
            for part in parts where !part.isEmpty { queue(part) }
        case .pause(let duration):
            record(.paused(duration))
            flush()
            guard state.pause() else { return }
            updateInterest()
            loop.schedule(after: duration) { [weak self] in
                guard let self, self.state.pauseEnded() else { return }
                self.drive()
            }
        case .close(let reason):
            state.finish(reason)
            endSteps()
        case .fault(let fault):
            perform(fault)
        case .whenWritten(let body):
            flushAndShut()
            guard !isClosed else { return }
            if allWritten {
                body()
            } else {
                state.awaitOutput()
                afterOutput = body
                updateInterest()
            }
        case .run(let body):
            body()
        }
    }

    private func perform(_ fault: StreamFault) {
        switch fault {
        case .reset:
            flush()
            guard !isClosed else { return }
            close(.resetByScript, reset: true)
        case .hang:
            flush()
            guard !isClosed else { return }
            state.fault(fault)
            endSteps()
            log(.debug, "hanging: no further answers")
        case .halfClose, .truncate, .truncateBody, .dribble:
            state.fault(fault)
        }
    }

    private func queue(_ bytes: [UInt8]) {
        output.append(bytes)
        if recordsOutput { environment.recordOutput(bytes, connection: id, channel: channel) }
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
        guard let wanted = state.interestChange(stepsPending: nextStep < steps.count, outputCount: output.count,
                                                keepingHeldRead: keepingHeldRead) else { return }
        do {
            try transport.setInterest(wanted, on: loop)
            state.interestSet(wanted)
        } catch {
            close(.failed("\(error)"))
        }
    }

    package func close(_ reason: Transcript.CloseReason) {
        close(reason, reset: false)
    }

    /// Closes the connection for `reason`; with `reset`, abortively (an RST on a socket).
    package func close(_ reason: Transcript.CloseReason, reset: Bool) {
        guard let action = state.close() else { return }
        afterOutput = nil
        driver.closed(self, reason: reason)
        transport.detach(from: loop)
        transport.close(reset: reset)
        output.removeAll()
        steps = []
        if action.records {
            record(.closed(reason))
        }
        log(.debug, "closed (\(reason))")
    }
}
