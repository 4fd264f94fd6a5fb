/// A transport that puts ``NetworkConditions`` between a connection and its socket: the
/// connection's writes wait in a queue until their latency has passed and the bandwidth allows,
/// leave in slices, and stop at the data limit; the peer's bytes are read at once but handed to the
/// connection only as latency and bandwidth allow. Everything runs on the loop's timers; no thread
/// sleeps.
///
/// Queues are bounded (``queueLimit`` each way): a full outgoing queue makes writes block, a full
/// incoming one stops reading the socket, so the connection's own backpressure still holds.
///
/// The queues, the allowances and the lifecycle are one value, ``ConditionedTransportState``, which
/// decides; this class reads the clock, draws the jitter, calls the socket and sets the timers.
package final class ConditionedTransport: StreamTransport, LoopHandler {
    /// How much one queue holds before the side feeding it must wait.
    package static var queueLimit: Int { ConditionedTransportState.queueLimit }

    private let inner: any StreamTransport
    /// The connection. Strong: the loop holds this transport (the socket's handler), and through it
    /// the connection, as it holds a plain connection; released when the transport closes.
    private var handler: (any LoopHandler)?
    private weak var loop: EventLoop?
    /// The queues, allowances, lifecycle, interest and timers.
    private var state: ConditionedTransportState
    private var random = SystemRandomNumberGenerator()

    package init(_ inner: any StreamTransport, conditions: NetworkConditions) {
        self.inner = inner
        state = ConditionedTransportState(conditions: conditions, now: MonotonicClock.now())
    }

    package var peerAddress: NetworkAddress? { inner.peerAddress }
    package var localAddress: NetworkAddress? { inner.localAddress }
    package var peerDescription: String { inner.peerDescription }
    package var hasPendingOutput: Bool { !state.outgoing.isEmpty || inner.hasPendingOutput }
    package var unacknowledgedBytes: Int? { inner.unacknowledgedBytes.map { $0 + state.outgoing.count } }

    package func attach(_ handler: any LoopHandler, to loop: EventLoop, interest: Interest) throws {
        self.handler = handler
        self.loop = loop
        state.want(interest)
        let applied = state.socketInterest
        state.interestApplied(applied)
        try inner.attach(self, to: loop, interest: applied)
        scheduleEnds(on: loop)
    }

    /// Sets the timers of the conditions' timeout and reset, counted from now.
    private func scheduleEnds(on loop: EventLoop) {
        let generation = state.generation
        if let timeout = state.conditions.timeout {
            loop.schedule(after: timeout) { [weak self] in
                self?.end("network timeout after \(timeout)", reset: false, generation: generation)
            }
        }
        if let resetAfter = state.conditions.resetAfter {
            loop.schedule(after: resetAfter) { [weak self] in
                self?.end("network reset after \(resetAfter)", reset: true, generation: generation)
            }
        }
    }

    /// Runs the connection under `newConditions` from now on (a response's own): bytes already
    /// queued keep the time they were given, new ones get the new latency and bandwidth, data
    /// limits count from here, and a timeout or reset runs from now (the earlier ones are dropped).
    package func change(to newConditions: NetworkConditions) {
        state.change(to: newConditions, now: MonotonicClock.now())
        if let loop {
            scheduleEnds(on: loop)
            scheduleDelivery()
            schedulePump()
            try? applyInterest()
        }
    }

    /// The conditions the connection runs under now.
    package var currentConditions: NetworkConditions { state.conditions }

    package func setInterest(_ interest: Interest, on loop: EventLoop) throws {
        state.want(interest)
        try applyInterest()
        if interest.contains(.read) { scheduleDelivery() }
    }

    package func detach(from loop: EventLoop) {
        inner.detach(from: loop)
    }

    package func connectionError(to target: NetworkAddress) -> SocketCallError? {
        inner.connectionError(to: target)
    }

    package func shutdownWrite() {
        if state.shutdownWrite() { inner.shutdownWrite() }
    }

    package func close(reset: Bool) {
        guard state.close() else { return }
        handler = nil
        let slowClose = state.conditions.slowClose
        if reset || slowClose == .zero {
            inner.close(reset: reset)
        } else {
            // The descriptor stays open, unwatched, until the FIN is due.
            let inner = self.inner
            loop?.schedule(after: slowClose) { inner.close(reset: false) }
        }
    }

    /// Ends the connection for a timeout or a reset of the conditions of `generation`, or (`nil`)
    /// for the data limit.
    private func end(_ reason: String, reset: Bool, generation: Int?) {
        guard let connection = handler as? StreamConnection, state.endsConnection(generation: generation) else { return }
        connection.log(.debug, reason)
        connection.close(.finished(reason), reset: reset)
    }

    // MARK: The socket's readiness

    package func handle(_ readiness: Readiness) {
        guard !state.isClosed else { return }
        let hadPending = !state.outgoing.isEmpty
        if readiness.writable || readiness.failed {
            state.socketWritable()
            pump()
        }
        if (readiness.readable || readiness.failed) && state.readsSocket { pull() }
        guard !state.isClosed else { return }
        // A connection that wants to write (or to hear that an outbound connection is made) hears
        // of room in the queue; one waiting for its output to be written, of the queue emptying.
        let room = state.hasRoomForWriter && (readiness.writable || hadPending)
        if room || hadPending && state.outgoing.isEmpty {
            handler?.handle(Readiness(readable: false, writable: true))
        }
        guard !state.isClosed else { return }
        scheduleDelivery()
        try? applyInterest()
    }

    package func close(_ reason: Transcript.CloseReason) {
        handler?.close(reason)
    }

    // MARK: Incoming

    /// Reads what the peer sent into the incoming queue, stamped with its latency.
    private func pull() {
        guard let loop else { return }
        let due = MonotonicClock.now() &+ delay(state.conditions.toServer)
        let buffer = loop.readBuffer
        let result = inner.read(into: buffer)
        state.read(result, bytes: {
            guard case .bytes(let count) = result else { return [] }
            return Array(buffer[..<count])
        }, due: due)
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer) -> Socket.ReadResult {
        let result = state.deliver(into: buffer, now: MonotonicClock.now())
        switch result {
        case .bytes, .wouldBlock:
            scheduleDelivery()
            try? applyInterest()
        case .endOfFile, .failed:
            break
        }
        return result
    }

    /// Tells the connection, when it wants input, that some may be read: now, or at the time the
    /// next bytes (or the end) are due and the bandwidth allows.
    private func scheduleDelivery() {
        guard let loop, let at = state.deliveryTimer(now: MonotonicClock.now()) else { return }
        loop.schedule(at: at) { [weak self] in
            guard let self, self.state.deliveryTimerFired() else { return }
            self.handler?.handle(Readiness(readable: true, writable: false))
            guard !self.state.isClosed else { return }
            self.scheduleDelivery()
            try? self.applyInterest()
        }
    }

    // MARK: Outgoing

    package func write(_ buffer: UnsafeRawBufferPointer) -> Socket.WriteResult {
        let due = MonotonicClock.now() &+ delay(state.conditions.toClient)
        switch state.write(buffer, due: due) {
        case .failed(let error):
            return .failed(error)
        case .wouldBlock:
            return .wouldBlock
        case .written(let count):
            pump()
            return .written(count)
        }
    }

    /// Releases what is due to the socket, as far as bandwidth, slicing, the data limit and the
    /// socket allow, and sets a timer for what is not due yet.
    private func pump() {
        releasing: while true {
            let now = MonotonicClock.now()
            guard case .write(let index, let offset, let count) = state.release(now: now) else { break }
            let result = state.outgoingPiece(index).withUnsafeBytes { bytes in
                inner.write(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count]))
            }
            switch state.wrote(result, now: now) {
            case .next:
                continue releasing
            case .blocked:
                break releasing
            case .limitReached(let limit):
                // Not from inside the connection's own write: it closes on the next turn, whatever
                // conditions come meanwhile.
                loop?.schedule(after: .zero) { [weak self] in
                    self?.end("network data limit of \(limit) bytes reached", reset: false, generation: nil)
                }
                return
            case .failed:
                // The connection hears of it on the next turn, not inside its own write.
                loop?.schedule(after: .zero) { [weak self] in
                    guard let self, !self.state.isClosed else { return }
                    self.handler?.handle(Readiness(readable: false, writable: true, failed: true))
                }
                return
            }
        }
        if state.releasesDone() { inner.shutdownWrite() }
        schedulePump()
        try? applyInterest()
    }

    private func schedulePump() {
        guard let loop, let at = state.pumpTimer(now: MonotonicClock.now()) else { return }
        loop.schedule(at: at) { [weak self] in
            guard let self, !self.state.isClosed else { return }
            self.state.pumpTimerFired()
            let hadPending = !self.state.outgoing.isEmpty
            self.pump()
            if hadPending && self.state.outgoing.isEmpty || self.state.hasRoomForWriter {
                self.handler?.handle(Readiness(readable: false, writable: true))
            }
        }
    }

    // MARK: Shared

    private func applyInterest() throws {
        guard let loop, let interest = state.interestChange else { return }
        try inner.setInterest(interest, on: loop)
        state.interestApplied(interest)
    }

    /// A write's latency, with its jitter drawn.
    private func delay(_ direction: NetworkConditions.Direction) -> UInt64 {
        var nanoseconds = Int64(MonotonicClock.nanoseconds(direction.latency))
        let jitter = Int64(MonotonicClock.nanoseconds(direction.jitter))
        if jitter > 0 { nanoseconds += Int64.random(in: -jitter...jitter, using: &random) }
        return UInt64(max(0, nanoseconds))
    }
}
