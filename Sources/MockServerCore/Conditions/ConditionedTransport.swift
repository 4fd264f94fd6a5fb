/// A transport that puts ``NetworkConditions`` between a connection and its socket: the
/// connection's writes wait in a queue until their latency has passed and the bandwidth allows,
/// leave in slices, and stop at the data limit; the peer's bytes are read at once but handed to the
/// connection only as latency and bandwidth allow. Everything runs on the loop's timers; no thread
/// sleeps.
///
/// Queues are bounded (``queueLimit`` each way): a full outgoing queue makes writes block, a full
/// incoming one stops reading the socket, so the connection's own backpressure still holds.
package final class ConditionedTransport: StreamTransport, LoopHandler {
    /// Bytes waiting to be released one way, each write's with the time it may leave.
    private struct Queue {
        var pieces: [(due: UInt64, bytes: [UInt8])] = []
        var head = 0
        var offset = 0
        var count = 0
        var lastDue: UInt64 = 0
        /// The bandwidth allowance (token bucket) and when it was last topped up.
        var tokens: Double = 0
        var refilled: UInt64 = 0
        /// When the next slice may leave.
        var nextSlice: UInt64 = 0
        /// Bytes released so far.
        var released = 0

        var isEmpty: Bool { head == pieces.count }

        mutating func append(_ bytes: [UInt8], due: UInt64) {
            let due = max(due, lastDue)
            lastDue = due
            pieces.append((due, bytes))
            count += bytes.count
        }

        /// Drops what was taken, and compacts now and then.
        mutating func consume(_ taken: Int) {
            offset += taken
            count -= taken
            released += taken
            if offset == pieces[head].bytes.count {
                head += 1
                offset = 0
                if head == pieces.count {
                    pieces.removeAll(keepingCapacity: true)
                    head = 0
                } else if head > 64 && head * 2 > pieces.count {
                    pieces.removeSubrange(0..<head)
                    head = 0
                }
            }
        }

        /// Counts the data limit and the bandwidth afresh from `now` (new conditions).
        mutating func restartCounting(at now: UInt64) {
            released = 0
            tokens = 0
            refilled = now
        }

        mutating func removeAll() {
            pieces.removeAll()
            head = 0
            offset = 0
            count = 0
        }
    }

    /// How much one queue holds before the side feeding it must wait.
    package static let queueLimit = 1 << 20

    private let inner: any StreamTransport
    private var conditions: NetworkConditions
    /// Counts ``change(to:)``s, so that a timeout or reset timer set for earlier conditions does nothing.
    private var generation = 0
    /// The connection. Strong: the loop holds this transport (the socket's handler), and through it
    /// the connection, as it holds a plain connection; released when the transport closes.
    private var handler: (any LoopHandler)?
    private weak var loop: EventLoop?
    /// What the connection asked to hear of, and what the socket is watched for now.
    private var wanted: Interest = []
    private var applied: Interest = []
    private var outgoing = Queue()
    private var incoming = Queue()
    /// The peer's end (or failure), once read, and when the connection may hear of it.
    private var inputEnd: (due: UInt64, result: Socket.ReadResult)?
    private var writeError: SocketCallError?
    /// The last socket write would have blocked: wait for writability.
    private var socketFull = false
    /// Timers already set, by deadline, so that one is not set twice.
    private var pumpAt: UInt64?
    private var deliverAt: UInt64?
    private var shutdownAfterDrain = false
    /// The data limit to the client was reached: the connection closes on the next turn.
    private var limitReached = false
    private var closed = false
    private var random = SystemRandomNumberGenerator()

    package init(_ inner: any StreamTransport, conditions: NetworkConditions) {
        self.inner = inner
        self.conditions = conditions
        let now = MonotonicClock.now()
        outgoing.refilled = now
        incoming.refilled = now
    }

    package var peerAddress: NetworkAddress? { inner.peerAddress }
    package var localAddress: NetworkAddress? { inner.localAddress }
    package var peerDescription: String { inner.peerDescription }
    package var hasPendingOutput: Bool { !outgoing.isEmpty || inner.hasPendingOutput }
    package var unacknowledgedBytes: Int? { inner.unacknowledgedBytes.map { $0 + outgoing.count } }

    package func attach(_ handler: any LoopHandler, to loop: EventLoop, interest: Interest) throws {
        self.handler = handler
        self.loop = loop
        wanted = interest
        applied = socketInterest
        try inner.attach(self, to: loop, interest: applied)
        scheduleEnds(on: loop)
    }

    /// Sets the timers of the conditions' timeout and reset, counted from now.
    private func scheduleEnds(on loop: EventLoop) {
        let generation = generation
        if let timeout = conditions.timeout {
            loop.schedule(after: timeout) { [weak self] in
                guard let self, self.generation == generation else { return }
                end("network timeout after \(timeout)", reset: false)
            }
        }
        if let resetAfter = conditions.resetAfter {
            loop.schedule(after: resetAfter) { [weak self] in
                guard let self, self.generation == generation else { return }
                end("network reset after \(resetAfter)", reset: true)
            }
        }
    }

    /// Runs the connection under `newConditions` from now on (a response's own): bytes already
    /// queued keep the time they were given, new ones get the new latency and bandwidth, data
    /// limits count from here, and a timeout or reset runs from now (the earlier ones are dropped).
    package func change(to newConditions: NetworkConditions) {
        conditions = newConditions
        generation += 1
        let now = MonotonicClock.now()
        outgoing.restartCounting(at: now)
        incoming.restartCounting(at: now)
        if let loop {
            scheduleEnds(on: loop)
            scheduleDelivery()
            schedulePump()
            try? applyInterest()
        }
    }

    /// The conditions the connection runs under now.
    package var currentConditions: NetworkConditions { conditions }

    package func setInterest(_ interest: Interest, on loop: EventLoop) throws {
        wanted = interest
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
        if outgoing.isEmpty { inner.shutdownWrite() } else { shutdownAfterDrain = true }
    }

    package func close(reset: Bool) {
        guard !closed else { return }
        closed = true
        handler = nil
        outgoing.removeAll()
        incoming.removeAll()
        if reset || conditions.slowClose == .zero {
            inner.close(reset: reset)
        } else {
            // The descriptor stays open, unwatched, until the FIN is due.
            let inner = self.inner
            loop?.schedule(after: conditions.slowClose) { inner.close(reset: false) }
        }
    }

    /// Ends the connection for a timeout or a reset of the conditions.
    private func end(_ reason: String, reset: Bool) {
        guard !closed, let connection = handler as? StreamConnection else { return }
        outgoing.removeAll()
        connection.log(.debug, reason)
        connection.close(.finished(reason), reset: reset)
    }

    // MARK: The socket's readiness

    package func handle(_ readiness: Readiness) {
        guard !closed else { return }
        let hadPending = !outgoing.isEmpty
        if readiness.writable || readiness.failed {
            socketFull = false
            pump()
        }
        if (readiness.readable || readiness.failed) && inputEnd == nil { pull() }
        guard !closed else { return }
        // A connection that wants to write (or to hear that an outbound connection is made) hears
        // of room in the queue; one waiting for its output to be written, of the queue emptying.
        let room = wanted.contains(.write) && outgoing.count < Self.queueLimit && (readiness.writable || hadPending)
        if room || hadPending && outgoing.isEmpty {
            handler?.handle(Readiness(readable: false, writable: true))
        }
        guard !closed else { return }
        scheduleDelivery()
        try? applyInterest()
    }

    package func close(_ reason: Transcript.CloseReason) {
        handler?.close(reason)
    }

    // MARK: Incoming

    /// Reads what the peer sent into the incoming queue, stamped with its latency.
    private func pull() {
        guard let loop, incoming.count < Self.queueLimit else { return }
        let due = MonotonicClock.now() &+ delay(conditions.toServer)
        switch inner.read(into: loop.readBuffer) {
        case .bytes(let count):
            incoming.append(Array(loop.readBuffer[..<count]), due: due)
        case .endOfFile:
            inputEnd = (max(due, incoming.lastDue), .endOfFile)
        case .failed(let error):
            inputEnd = (max(due, incoming.lastDue), .failed(error))
        case .wouldBlock:
            break
        }
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer) -> Socket.ReadResult {
        let now = MonotonicClock.now()
        let direction = conditions.toServer
        if !incoming.isEmpty, incoming.pieces[incoming.head].due <= now {
            var allowed = min(buffer.count, incoming.pieces[incoming.head].bytes.count - incoming.offset)
            allowed = min(allowed, Self.allowance(&incoming, direction, now: now))
            if let limit = direction.dataLimit { allowed = min(allowed, limit - incoming.released) }
            if allowed > 0 {
                let piece = incoming.pieces[incoming.head].bytes
                piece.withUnsafeBytes { bytes in
                    buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + incoming.offset, byteCount: allowed)
                }
                incoming.tokens -= Double(allowed)
                incoming.consume(allowed)
                if direction.sliceSize != nil { incoming.nextSlice = now &+ MonotonicClock.nanoseconds(direction.sliceDelay) }
                if let limit = direction.dataLimit, incoming.released >= limit {
                    incoming.removeAll()
                    inputEnd = (now, .endOfFile)
                }
                scheduleDelivery()
                try? applyInterest()
                return .bytes(allowed)
            }
        }
        if incoming.isEmpty, let end = inputEnd, end.due <= now { return end.result }
        scheduleDelivery()
        try? applyInterest()
        return .wouldBlock
    }

    /// Tells the connection, when it wants input, that some may be read: now, or at the time the
    /// next bytes (or the end) are due and the bandwidth allows.
    private func scheduleDelivery() {
        guard wanted.contains(.read), let loop, !closed else { return }
        let now = MonotonicClock.now()
        var at: UInt64?
        if !incoming.isEmpty {
            at = max(incoming.pieces[incoming.head].due, Self.nextAllowed(incoming, conditions.toServer, now: now))
        } else if let end = inputEnd {
            at = end.due
        }
        guard let at, deliverAt.map({ $0 > at }) ?? true else { return }
        deliverAt = at
        loop.schedule(at: at) { [weak self] in
            guard let self, !self.closed else { return }
            self.deliverAt = nil
            guard self.wanted.contains(.read) else { return }
            self.handler?.handle(Readiness(readable: true, writable: false))
            guard !self.closed else { return }
            self.scheduleDelivery()
            try? self.applyInterest()
        }
    }

    // MARK: Outgoing

    package func write(_ buffer: UnsafeRawBufferPointer) -> Socket.WriteResult {
        if let writeError { return .failed(writeError) }
        // Past the data limit, bytes vanish until the connection closes.
        if limitReached { return .written(buffer.count) }
        guard outgoing.count < Self.queueLimit else { return .wouldBlock }
        let taken = min(buffer.count, Self.queueLimit - outgoing.count)
        outgoing.append(Array(buffer[..<taken]), due: MonotonicClock.now() &+ delay(conditions.toClient))
        pump()
        return .written(taken)
    }

    /// Releases what is due to the socket, as far as bandwidth, slicing, the data limit and the
    /// socket allow, and sets a timer for what is not due yet.
    private func pump() {
        let direction = conditions.toClient
        while !outgoing.isEmpty, !socketFull, !closed {
            let now = MonotonicClock.now()
            let piece = outgoing.pieces[outgoing.head]
            guard piece.due <= now else { break }
            var allowed = min(piece.bytes.count - outgoing.offset, Self.allowance(&outgoing, direction, now: now))
            if let limit = direction.dataLimit { allowed = min(allowed, limit - outgoing.released) }
            guard allowed > 0 else { break }
            let offset = outgoing.offset
            let result = piece.bytes.withUnsafeBytes { bytes in
                inner.write(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + allowed]))
            }
            switch result {
            case .written(let count):
                outgoing.tokens -= Double(count)
                outgoing.consume(count)
                if direction.sliceSize != nil { outgoing.nextSlice = now &+ MonotonicClock.nanoseconds(direction.sliceDelay) }
                if let limit = direction.dataLimit, outgoing.released >= limit {
                    // Not from inside the connection's own write: it closes on the next turn.
                    outgoing.removeAll()
                    limitReached = true
                    loop?.schedule(after: .zero) { [weak self] in self?.end("network data limit of \(limit) bytes reached", reset: false) }
                    return
                }
            case .wouldBlock:
                socketFull = true
            case .failed(let error):
                writeError = error
                outgoing.removeAll()
                // The connection hears of it on the next turn, not inside its own write.
                loop?.schedule(after: .zero) { [weak self] in
                    guard let self, !self.closed else { return }
                    self.handler?.handle(Readiness(readable: false, writable: true, failed: true))
                }
                return
            }
        }
        if outgoing.isEmpty && shutdownAfterDrain {
            shutdownAfterDrain = false
            inner.shutdownWrite()
        }
        schedulePump()
        try? applyInterest()
    }

    private func schedulePump() {
        guard !outgoing.isEmpty, !socketFull, let loop, !closed else { return }
        let now = MonotonicClock.now()
        let at = max(outgoing.pieces[outgoing.head].due, Self.nextAllowed(outgoing, conditions.toClient, now: now))
        guard pumpAt.map({ $0 > at }) ?? true else { return }
        pumpAt = at
        loop.schedule(at: at) { [weak self] in
            guard let self, !self.closed else { return }
            self.pumpAt = nil
            let hadPending = !self.outgoing.isEmpty
            self.pump()
            if hadPending && self.outgoing.isEmpty || self.wanted.contains(.write) && self.outgoing.count < Self.queueLimit {
                self.handler?.handle(Readiness(readable: false, writable: true))
            }
        }
    }

    // MARK: Shared

    /// The socket is read while the incoming queue has room and the input has not ended, and
    /// watched for writing while a due write could not go out, or while the connection wants to
    /// write and the queue has room (an outbound connection waits for its connect so).
    private var socketInterest: Interest {
        var interest: Interest = []
        if inputEnd == nil && incoming.count < Self.queueLimit { interest.insert(.read) }
        if socketFull || wanted.contains(.write) && outgoing.count < Self.queueLimit { interest.insert(.write) }
        return interest
    }

    private func applyInterest() throws {
        guard !closed, let loop else { return }
        let interest = socketInterest
        guard interest != applied else { return }
        try inner.setInterest(interest, on: loop)
        applied = interest
    }

    /// A write's latency, with its jitter drawn.
    private func delay(_ direction: NetworkConditions.Direction) -> UInt64 {
        var nanoseconds = Int64(MonotonicClock.nanoseconds(direction.latency))
        let jitter = Int64(MonotonicClock.nanoseconds(direction.jitter))
        if jitter > 0 { nanoseconds += Int64.random(in: -jitter...jitter, using: &random) }
        return UInt64(max(0, nanoseconds))
    }

    /// How many bytes may go now: the slice size, the bandwidth's allowance (topped up first).
    private static func allowance(_ queue: inout Queue, _ direction: NetworkConditions.Direction, now: UInt64) -> Int {
        if direction.sliceSize != nil && now < queue.nextSlice { return 0 }
        var allowed = Int.max
        if let slice = direction.sliceSize { allowed = slice }
        if let rate = direction.bytesPerSecond {
            // At most a twentieth of a second's worth at once, so that the rate holds over short spans.
            let burst = max(Double(rate) / 20, 1)
            queue.tokens = min(burst, queue.tokens + Double(now &- queue.refilled) * Double(rate) / 1e9)
            queue.refilled = now
            allowed = min(allowed, Int(queue.tokens))
        }
        return allowed
    }

    /// When the next byte may go, as far as slicing and bandwidth say.
    private static func nextAllowed(_ queue: Queue, _ direction: NetworkConditions.Direction, now: UInt64) -> UInt64 {
        var at = now
        if direction.sliceSize != nil { at = max(at, queue.nextSlice) }
        if let rate = direction.bytesPerSecond, queue.tokens < 1 {
            at = max(at, now &+ UInt64((1 - queue.tokens) * 1e9 / Double(rate)) + 1)
        }
        return at
    }
}
