/// What a ``ConditionedTransport`` holds and decides, as one value: the bytes waiting each way with
/// the time each may leave, the bandwidth allowance and the slicing, the data limits, the sending
/// side's lifecycle (flowing, blocked on the socket, shutting after the queue drains, past the data
/// limit, failed), the input's end, the interest and the timers set. Events go in with the time they
/// happen (`now`, in ``MonotonicClock`` nanoseconds), decisions come out; the transport reads the
/// clock, draws the jitter, does the socket calls and sets the loop's timers. No clock, no socket
/// and no loop here, so the machine is tested on its own, deterministically.
package struct ConditionedTransportState: Sendable {
    /// Bytes waiting to be released one way, each write's with the time it may leave.
    package struct Queue: Sendable {
        package private(set) var pieces: [(due: UInt64, bytes: [UInt8])] = []
        package private(set) var head = 0
        package private(set) var offset = 0
        /// The bytes waiting.
        package private(set) var count = 0
        /// The latest due time given, which later pieces never precede.
        package private(set) var lastDue: UInt64 = 0
        /// The bandwidth allowance (token bucket) and when it was last topped up.
        package fileprivate(set) var tokens: Double = 0
        package fileprivate(set) var refilled: UInt64 = 0
        /// When the next slice may leave.
        package fileprivate(set) var nextSlice: UInt64 = 0
        /// Bytes released so far (since the conditions last changed).
        package fileprivate(set) var released = 0

        var isEmpty: Bool { head == pieces.count }

        /// The first piece's due time, when there is one.
        var headDue: UInt64? { isEmpty ? nil : pieces[head].due }

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

        /// How many bytes may go now: the slice size, the bandwidth's allowance (topped up first),
        /// the data limit's rest, and the head piece's rest.
        mutating func allowance(_ direction: NetworkConditions.Direction, now: UInt64) -> Int {
            if direction.sliceSize != nil && now < nextSlice { return 0 }
            var allowed = pieces[head].bytes.count - offset
            if let slice = direction.sliceSize { allowed = min(allowed, slice) }
            if let rate = direction.bytesPerSecond {
                // At most a twentieth of a second's worth at once, so that the rate holds over short spans.
                let burst = max(Double(rate) / 20, 1)
                tokens = min(burst, tokens + Double(now &- refilled) * Double(rate) / 1e9)
                refilled = now
                allowed = min(allowed, Int(tokens))
            }
            if let limit = direction.dataLimit { allowed = min(allowed, limit - released) }
            return allowed
        }

        /// `count` bytes left at `now`: the bandwidth and the slicing count them.
        mutating func took(_ count: Int, _ direction: NetworkConditions.Direction, now: UInt64) {
            tokens -= Double(count)
            consume(count)
            if direction.sliceSize != nil { nextSlice = now &+ MonotonicClock.nanoseconds(direction.sliceDelay) }
        }

        /// Whether the data limit is reached.
        func reachedLimit(_ direction: NetworkConditions.Direction) -> Bool {
            direction.dataLimit.map { released >= $0 } ?? false
        }

        /// When the next byte may go, as far as the head piece's due time, slicing and bandwidth say.
        func nextAllowed(_ direction: NetworkConditions.Direction, now: UInt64) -> UInt64? {
            guard let due = headDue else { return nil }
            var at = max(now, due)
            if direction.sliceSize != nil { at = max(at, nextSlice) }
            if let rate = direction.bytesPerSecond, tokens < 1 {
                at = max(at, now &+ UInt64((1 - tokens) * 1e9 / Double(rate)) + 1)
            }
            return at
        }
    }

    /// The transport's lifecycle.
    package enum Lifecycle: Sendable, Equatable {
        /// Bytes flow; the sending side is as ``Sending`` says.
        case open(Sending)
        /// The connection closed the transport: nothing more happens.
        case closed
    }

    /// The sending side of an open transport.
    package enum Sending: Sendable, Equatable {
        /// Writes are queued and released as the conditions allow.
        case flowing(SocketRoom)
        /// The connection shut its sending side with bytes queued: the inner transport's side is
        /// shut once they are gone.
        case shutAfterDrain(SocketRoom)
        /// The data limit to the client was reached: bytes vanish until the connection closes (on
        /// the next turn of the loop).
        case limitReached(Int)
        /// A write to the socket failed: every write fails so.
        case failed(SocketCallError)
    }

    /// Whether the socket takes bytes.
    package enum SocketRoom: Sendable, Equatable {
        case ready
        /// Its last write would have blocked: wait for writability.
        case full
    }

    /// The input side.
    package enum Receiving: Sendable, Equatable {
        /// The socket is read.
        case flowing
        /// The peer's end (or failure) was read: the connection hears of it at `due`, once the bytes
        /// before it are delivered.
        case ended(due: UInt64, result: Socket.ReadResult)
    }

    /// How much one queue holds before the side feeding it must wait.
    package static let queueLimit = 1 << 20

    /// The conditions the connection runs under now.
    package private(set) var conditions: NetworkConditions
    /// Counts ``change(to:now:)``s, so that a timeout or reset timer set for earlier conditions does nothing.
    package private(set) var generation = 0
    /// Where the transport is.
    package private(set) var lifecycle = Lifecycle.open(.flowing(.ready))
    /// The input side.
    package private(set) var receiving = Receiving.flowing
    /// The connection's bytes on their way to the peer.
    package private(set) var outgoing = Queue()
    /// The peer's bytes on their way to the connection.
    package private(set) var incoming = Queue()
    /// What the connection asked to hear of.
    package private(set) var wanted: Interest = []
    /// What the socket is watched for now.
    package private(set) var applied: Interest = []
    /// The release and delivery timers set, by deadline, so that one is not set twice.
    package private(set) var pumpAt: UInt64?
    package private(set) var deliverAt: UInt64?

    /// A transport under `conditions` from `now`.
    package init(conditions: NetworkConditions, now: UInt64) {
        self.conditions = conditions
        outgoing.refilled = now
        incoming.refilled = now
    }

    // MARK: Queries

    /// Whether the transport was closed.
    package var isClosed: Bool { lifecycle == .closed }

    /// Whether the socket's last write would have blocked.
    package var socketFull: Bool {
        switch lifecycle {
        case .open(.flowing(.full)), .open(.shutAfterDrain(.full)): true
        case .open, .closed: false
        }
    }

    /// What the socket is to be watched for: read while the incoming queue has room and the input
    /// has not ended, write while a due write could not go out, or while the connection wants to
    /// write and the queue has room (an outbound connection waits for its connect so).
    package var socketInterest: Interest {
        var interest: Interest = []
        if receiving == .flowing && incoming.count < Self.queueLimit { interest.insert(.read) }
        if socketFull || wanted.contains(.write) && outgoing.count < Self.queueLimit { interest.insert(.write) }
        return interest
    }

    /// The interest to apply to the socket now, or `nil` when it is applied already (or closed);
    /// ``interestApplied(_:)`` reports it done.
    package var interestChange: Interest? {
        guard !isClosed else { return nil }
        let interest = socketInterest
        return interest == applied ? nil : interest
    }

    /// The socket is watched for `interest` now.
    package mutating func interestApplied(_ interest: Interest) {
        applied = interest
    }

    /// Whether a connection that wants to write hears of room in the queue.
    package var hasRoomForWriter: Bool {
        wanted.contains(.write) && outgoing.count < Self.queueLimit
    }

    // MARK: The connection

    /// The connection asks to hear of `interest`.
    package mutating func want(_ interest: Interest) {
        wanted = interest
    }

    /// New conditions from `now`: bytes queued keep their times, data limits and bandwidth count
    /// afresh, and timers of the earlier conditions' timeout and reset are void.
    package mutating func change(to newConditions: NetworkConditions, now: UInt64) {
        conditions = newConditions
        generation += 1
        outgoing.restartCounting(at: now)
        incoming.restartCounting(at: now)
    }

    /// What a write of the connection does.
    package enum WriteAction: Sendable, Equatable {
        /// Report `count` bytes written: queued (then released as far as they may be), or dropped
        /// past the data limit.
        case written(Int)
        /// The queue is full.
        case wouldBlock
        /// A write to the socket failed before.
        case failed(SocketCallError)
    }

    /// The connection writes `buffer`, due to leave at `due`.
    package mutating func write(_ buffer: UnsafeRawBufferPointer, due: UInt64) -> WriteAction {
        switch lifecycle {
        case .open(.failed(let error)): return .failed(error)
        // Past the data limit, bytes vanish until the connection closes.
        case .open(.limitReached): return .written(buffer.count)
        case .open, .closed: break
        }
        guard outgoing.count < Self.queueLimit else { return .wouldBlock }
        let taken = min(buffer.count, Self.queueLimit - outgoing.count)
        outgoing.append(Array(buffer[..<taken]), due: due)
        return .written(taken)
    }

    /// The connection ends its sending side: whether the inner transport's side is shut now (the
    /// queue is empty), or once the queue drains.
    package mutating func shutdownWrite() -> Bool {
        guard !outgoing.isEmpty else { return true }
        if case .open(.flowing(let socket)) = lifecycle { lifecycle = .open(.shutAfterDrain(socket)) }
        return false
    }

    /// The connection closes the transport: whether this is the first close (the queues are dropped).
    package mutating func close() -> Bool {
        guard !isClosed else { return false }
        lifecycle = .closed
        outgoing.removeAll()
        incoming.removeAll()
        return true
    }

    /// The conditions' timeout or reset (of `generation`) fired, or (`nil`) the data limit was
    /// reached a turn ago: whether the connection ends (not once closed, nor for a timer of
    /// conditions changed since); the queued output is dropped.
    package mutating func endsConnection(generation: Int?) -> Bool {
        guard !isClosed, generation.map({ $0 == self.generation }) ?? true else { return false }
        outgoing.removeAll()
        return true
    }

    // MARK: Outgoing

    /// What the next release is.
    package enum Release: Sendable, Equatable {
        /// Write `count` bytes of the head piece from `offset`.
        case write(piece: Int, offset: Int, count: Int)
        /// Nothing may go now.
        case none
    }

    /// What may go to the socket at `now`, as far as due times, bandwidth, slicing, the data
    /// limit and the socket allow.
    package mutating func release(now: UInt64) -> Release {
        switch lifecycle {
        case .open(.flowing(.ready)), .open(.shutAfterDrain(.ready)): break
        case .open, .closed: return .none
        }
        guard let due = outgoing.headDue, due <= now else { return .none }
        let allowed = outgoing.allowance(conditions.toClient, now: now)
        guard allowed > 0 else { return .none }
        return .write(piece: outgoing.head, offset: outgoing.offset, count: allowed)
    }

    /// The head piece's bytes (for the transport to write from).
    package func outgoingPiece(_ index: Int) -> [UInt8] {
        outgoing.pieces[index].bytes
    }

    /// What follows a socket write.
    package enum WrittenAction: Sendable, Equatable {
        /// Release more.
        case next
        /// Stop: the socket is full; a writability resumes.
        case blocked
        /// Stop: the data limit is reached. The connection closes on the next turn (not from inside
        /// its own write), for this limit.
        case limitReached(Int)
        /// Stop: the write failed. The connection hears of it on the next turn.
        case failed
    }

    /// The socket took a release's bytes at `now` (or would have blocked, or failed).
    package mutating func wrote(_ result: Socket.WriteResult, now: UInt64) -> WrittenAction {
        switch result {
        case .written(let count):
            let direction = conditions.toClient
            outgoing.took(count, direction, now: now)
            if let limit = direction.dataLimit, outgoing.reachedLimit(direction) {
                outgoing.removeAll()
                lifecycle = .open(.limitReached(limit))
                return .limitReached(limit)
            }
            return .next
        case .wouldBlock:
            switch lifecycle {
            case .open(.flowing): lifecycle = .open(.flowing(.full))
            case .open(.shutAfterDrain): lifecycle = .open(.shutAfterDrain(.full))
            case .open, .closed: break
            }
            return .blocked
        case .failed(let error):
            outgoing.removeAll()
            lifecycle = .open(.failed(error))
            return .failed
        }
    }

    /// The releases stopped with nothing to write or nothing allowed: whether the inner
    /// transport's sending side is to be shut now (asked while bytes waited, and they are gone).
    package mutating func releasesDone() -> Bool {
        guard outgoing.isEmpty, case .open(.shutAfterDrain(let socket)) = lifecycle else { return false }
        lifecycle = .open(.flowing(socket))
        return true
    }

    /// The socket is writable (or broken): it takes bytes again.
    package mutating func socketWritable() {
        switch lifecycle {
        case .open(.flowing(.full)): lifecycle = .open(.flowing(.ready))
        case .open(.shutAfterDrain(.full)): lifecycle = .open(.shutAfterDrain(.ready))
        case .open, .closed: break
        }
    }

    /// When the release timer is to fire (the head piece's time, or when bandwidth or slicing
    /// allow), or `nil` when none is needed or one set fires no later. The transport sets it.
    package mutating func pumpTimer(now: UInt64) -> UInt64? {
        guard !socketFull, !isClosed, let at = outgoing.nextAllowed(conditions.toClient, now: now),
              pumpAt.map({ $0 > at }) ?? true else { return nil }
        pumpAt = at
        return at
    }

    /// The release timer fired.
    package mutating func pumpTimerFired() {
        pumpAt = nil
    }

    // MARK: Incoming

    /// Whether the socket is read now: the input has not ended and the incoming queue has room.
    package var readsSocket: Bool {
        !isClosed && receiving == .flowing && incoming.count < Self.queueLimit
    }

    /// The socket read `result`, to be handed on at `due`.
    package mutating func read(_ result: Socket.ReadResult, bytes: () -> [UInt8], due: UInt64) {
        switch result {
        case .bytes:
            incoming.append(bytes(), due: due)
        case .endOfFile, .failed:
            receiving = .ended(due: max(due, incoming.lastDue), result: result)
        case .wouldBlock:
            break
        }
    }

    /// The connection reads into `buffer` at `now`: the bytes that may be handed on, the end when
    /// it is due and nothing precedes it, or nothing.
    package mutating func deliver(into buffer: UnsafeMutableRawBufferPointer, now: UInt64) -> Socket.ReadResult {
        let direction = conditions.toServer
        if let due = incoming.headDue, due <= now {
            let allowed = min(buffer.count, incoming.allowance(direction, now: now))
            if allowed > 0 {
                incoming.pieces[incoming.head].bytes.withUnsafeBytes { bytes in
                    buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + incoming.offset, byteCount: allowed)
                }
                incoming.took(allowed, direction, now: now)
                if incoming.reachedLimit(direction) {
                    incoming.removeAll()
                    receiving = .ended(due: now, result: .endOfFile)
                }
                return .bytes(allowed)
            }
        }
        if incoming.isEmpty, case .ended(let due, let result) = receiving, due <= now { return result }
        return .wouldBlock
    }

    /// When the connection is to hear that input may be read (the next bytes' time as bandwidth
    /// and slicing allow, or the end's), or `nil` when it does not want input, nothing waits, or
    /// a timer set fires no later. The transport sets it.
    package mutating func deliveryTimer(now: UInt64) -> UInt64? {
        guard wanted.contains(.read), !isClosed else { return nil }
        var at: UInt64?
        if let next = incoming.nextAllowed(conditions.toServer, now: now) {
            at = next
        } else if case .ended(let due, _) = receiving {
            at = due
        }
        guard let at, deliverAt.map({ $0 > at }) ?? true else { return nil }
        deliverAt = at
        return at
    }

    /// The delivery timer fired: whether the connection hears of input (it still wants it).
    package mutating func deliveryTimerFired() -> Bool {
        deliverAt = nil
        return !isClosed && wanted.contains(.read)
    }
}
