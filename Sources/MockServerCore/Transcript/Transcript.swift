import Dispatch
import Foundation

/// The ordered record of everything that happened on a server's connections.
///
/// Safe to read from any thread while the server runs. To keep memory bounded on long runs only the
/// newest ``limit`` entries are kept, and only as many of the newest as hold ``byteLimit`` bytes of
/// input and output between them (``droppedCount`` says how many went); unmatched inputs are also
/// kept apart, all of them, in ``unmatched``.
public final class Transcript: Sendable {
    private struct Waiter {
        let id: UInt64
        let predicate: @Sendable (Transcript.Entry) -> Bool
        let continuation: CheckedContinuation<Transcript.Entry, any Error>
    }

    private struct Storage {
        /// The kept entries, compact, in a ring once the limit is reached, in segments that never
        /// move as it grows.
        var slots: SegmentedRing<TranscriptSlot>
        /// The bytes the compact entries keep.
        var store = TranscriptBytes()
        var unmatched: [Transcript.Entry] = []
        var dropped = 0
        /// The bytes of input and output the kept entries hold (``Transcript/Event/payloadByteCount``).
        var bytes = 0
        var nextSequence = 0
        var waiters: [Waiter] = []
        var nextWaiterID: UInt64 = 0

        /// The kept entries, oldest first.
        var ordered: [Transcript.Entry] {
            let first = nextSequence - slots.count
            return slots.ordered.enumerated().map { $0.element.entry(sequence: first + $0.offset, store: store) }
        }

        /// Takes out of the counts what `slot`, just dropped, held, and frees the bytes no kept
        /// entry needs.
        mutating func forget(_ slot: TranscriptSlot) {
            dropped += 1
            bytes -= slot.payloadByteCount
            if let end = slot.storeEnd { store.release(upTo: end) }
        }
    }

    /// How many entries are kept.
    public let limit: Int
    /// How many bytes of input and output the kept entries may hold between them; past it the
    /// oldest are dropped (the newest entry is always kept, whatever its size).
    public let byteLimit: Int
    /// The default ``byteLimit``: 64 MiB.
    public static let defaultByteLimit = 64 << 20
    private let observer: (@Sendable (Transcript.Entry) -> Void)?
    private let storage: Locked<Storage>

    /// Creates an empty transcript.
    ///
    /// - Parameters:
    ///   - limit: how many entries to keep; older ones are dropped.
    ///   - byteLimit: how many bytes of input and output (``Transcript/Event/input(_:response:)``,
    ///     ``Transcript/Event/unmatched(_:)``, ``Transcript/Event/output(_:)``) the kept entries may
    ///     hold; older ones are dropped. Bytes that share their storage with what is still being
    ///     sent (a body every connection sends) cost no memory of their own, but count.
    ///   - observer: called with each entry as it is recorded, on the recording thread.
    public init(limit: Int = 100_000, byteLimit: Int = Transcript.defaultByteLimit, observer: (@Sendable (Transcript.Entry) -> Void)? = nil) {
        self.limit = max(1, limit)
        self.byteLimit = max(0, byteLimit)
        self.observer = observer
        storage = Locked(Storage(slots: SegmentedRing(limit: self.limit)))
    }

    /// The kept entries, oldest first.
    public var entries: [Transcript.Entry] { storage.withLock { $0.ordered } }

    /// Every input that matched no response, oldest first.
    public var unmatched: [Transcript.Entry] { storage.withLock { $0.unmatched } }

    /// How many of the oldest entries were dropped to stay within ``limit`` and ``byteLimit``.
    public var droppedCount: Int { storage.withLock { $0.dropped } }

    /// The bytes of input and output the kept entries hold, counted against ``byteLimit``.
    package var byteCount: Int { storage.withLock { $0.bytes } }

    /// How many chunks of bytes the kept entries' compact store holds (``TranscriptBytes``).
    package var storeChunkCount: Int { storage.withLock { $0.store.chunkCount } }

    /// The inputs the script answered or left unmatched, in order.
    public var inputs: [InputUnit] {
        entries.compactMap { entry in
            switch entry.event {
            case .input(let input, _), .unmatched(let input): input
            default: nil
            }
        }
    }

    /// Forgets every entry (waiters keep waiting).
    public func removeAll() {
        storage.withLock {
            $0.slots.removeAll()
            $0.store.removeAll()
            $0.unmatched.removeAll()
            $0.dropped = 0
            $0.bytes = 0
        }
    }

    /// The transcript as text, one entry a line.
    public func dump() -> String {
        entries.map(\.description).joined(separator: "\n")
    }

    /// Waits for the first entry, already recorded or still to come, for which `predicate` holds.
    ///
    /// - Parameters:
    ///   - expectation: words for the error message, such as `"input matching ^QUIT"`.
    ///   - timeout: how long to wait.
    ///   - predicate: the condition; called under the transcript's lock, so keep it short.
    /// - Throws: ``Transcript.Timeout`` with the transcript so far, or `CancellationError`.
    @discardableResult
    public func wait(for expectation: String = "a matching entry", timeout: Duration = .seconds(10),
                     where predicate: @escaping @Sendable (Transcript.Entry) -> Bool) async throws -> Transcript.Entry {
        let id = storage.withLock { storage -> UInt64 in
            storage.nextWaiterID += 1
            return storage.nextWaiterID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Transcript.Entry, any Error>) in
                let found: Transcript.Entry? = storage.withLock { storage in
                    if let entry = storage.ordered.first(where: predicate) { return entry }
                    storage.waiters.append(Waiter(id: id, predicate: predicate, continuation: continuation))
                    return nil
                }
                if let found {
                    continuation.resume(returning: found)
                    return
                }
                let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
                DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: nanoseconds))) { [self] in
                    let snapshot = entries
                    fail(waiter: id, with: Transcript.Timeout(timeout: timeout, expectation: expectation, transcript: snapshot))
                }
            }
        } onCancel: {
            fail(waiter: id, with: CancellationError())
        }
    }

    private func fail(waiter id: UInt64, with error: any Error) {
        let continuation = storage.withLock { storage -> CheckedContinuation<Transcript.Entry, any Error>? in
            guard let index = storage.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return storage.waiters.remove(at: index).continuation
        }
        continuation?.resume(throwing: error)
    }

    /// The waiters an entry satisfied, with the entry, to resume once the lock is released; `nil`
    /// when there are none (the usual case: no array is made).
    private typealias Satisfied = [(CheckedContinuation<Transcript.Entry, any Error>, Transcript.Entry)]?

    /// Appends an entry (of `exchange`, when the input came on one of several). Called by the
    /// server's connections.
    ///
    /// The event's bytes are copied into the transcript's compact store (``TranscriptSlot``) or, for
    /// an event without a compact form, `event` moves out of line whole. `event` is taken, and moves
    /// into the lock's closure through `pending` rather than being captured (a capture copies it,
    /// retaining each of its parts). Without an observer, a waiter or an unmatched input, the usual
    /// case, no ``Transcript/Entry`` is made, nor an array of the waiters satisfied.
    package func record(_ event: __owned Transcript.Event, connection: Int, channel: Transcript.Channel, exchange: Transcript.Exchange? = nil) {
        var pending: Transcript.Event? = event
        let time = Date()
        guard let observer else {
            let satisfied = storage.withLock { storage in
                append(pending.take()!, connection: connection, channel: channel, exchange: exchange, time: time, to: &storage)
            }
            if let satisfied { Self.resume(satisfied) }
            return
        }
        let (observed, satisfied) = storage.withLock { storage in
            appendObserved(pending.take()!, connection: connection, channel: channel, exchange: exchange, time: time, to: &storage)
        }
        if let satisfied { Self.resume(satisfied) }
        observer(observed)
    }

    /// Records an input of `unit` that `response` answered, as `record(.input(unit, response:))`
    /// does, but without making the event when nothing needs it (no observer or waiter, a short
    /// input on the main channel): the bytes are copied into the store from where they are, and
    /// neither retained nor released.
    package func recordInput(_ unit: InputUnit, response: String?, connection: Int, channel: Transcript.Channel) {
        if observer == nil, channel == .main {
            let time = Date()
            let kept = storage.withLock { storage -> Bool in
                guard storage.waiters.isEmpty,
                      let slot = TranscriptSlot(input: unit, response: response, connection: connection, time: time, store: &storage.store) else { return false }
                storage.nextSequence += 1
                keep(slot, in: &storage)
                return true
            }
            if kept { return }
        }
        record(.input(unit, response: response), connection: connection, channel: channel)
    }

    /// Records an output of `bytes`, as `record(.output(bytes))` does, but without making the
    /// event when nothing needs it (see ``recordInput(_:response:connection:channel:)``).
    package func recordOutput(_ bytes: [UInt8], connection: Int, channel: Transcript.Channel) {
        if observer == nil, channel == .main {
            let time = Date()
            let kept = storage.withLock { storage -> Bool in
                guard storage.waiters.isEmpty, let slot = TranscriptSlot(output: bytes, connection: connection, time: time, store: &storage.store) else {
                    return false
                }
                storage.nextSequence += 1
                keep(slot, in: &storage)
                return true
            }
            if kept { return }
        }
        record(.output(bytes), connection: connection, channel: channel)
    }

    /// Appends entries for `events`, in order and with one time, as one step: nothing is recorded
    /// between them. The observer sees each after the step.
    package func record(_ events: [Transcript.Event], connection: Int, channel: Transcript.Channel) {
        let time = Date()
        let observing = observer != nil
        let (recorded, satisfied) = storage.withLock { storage -> ([Transcript.Entry], Satisfied) in
            var recorded: [Transcript.Entry] = []
            var satisfied: Satisfied = nil
            for event in events {
                if observing {
                    let (entry, more) = appendObserved(event, connection: connection, channel: channel, exchange: nil, time: time, to: &storage)
                    recorded.append(entry)
                    if let more { satisfied = (satisfied ?? []) + more }
                } else if let more = append(event, connection: connection, channel: channel, exchange: nil, time: time, to: &storage) {
                    satisfied = (satisfied ?? []) + more
                }
            }
            return (recorded, satisfied)
        }
        if let satisfied { Self.resume(satisfied) }
        if let observer { recorded.forEach(observer) }
    }

    /// Resumes each waiter with its entry.
    private static func resume(_ satisfied: [(CheckedContinuation<Transcript.Entry, any Error>, Transcript.Entry)]) {
        for (continuation, entry) in satisfied { continuation.resume(returning: entry) }
    }

    /// Appends one entry under the lock; returns the waiters it satisfies, if any. An entry is
    /// made only for an unmatched input or when a waiter waits.
    @inline(__always)
    private func append(_ event: __owned Transcript.Event, connection: Int, channel: Transcript.Channel, exchange: Transcript.Exchange?, time: Date,
                        to storage: inout Storage) -> Satisfied {
        let sequence = storage.nextSequence
        storage.nextSequence += 1
        var satisfied: Satisfied = nil
        if case .unmatched = event {
            satisfied = noteEntry(Transcript.Entry(sequence: sequence, connection: connection, channel: channel, time: time, event: event, exchange: exchange),
                                  in: &storage)
        } else if !storage.waiters.isEmpty {
            satisfied = noteEntry(Transcript.Entry(sequence: sequence, connection: connection, channel: channel, time: time, event: event, exchange: exchange),
                                  in: &storage)
        }
        keep(TranscriptSlot(event, connection: connection, channel: channel, exchange: exchange, time: time, store: &storage.store), in: &storage)
        return satisfied
    }

    /// ``append(_:connection:channel:exchange:time:to:)`` for an observer: the entry is made and
    /// returned too.
    private func appendObserved(_ event: __owned Transcript.Event, connection: Int, channel: Transcript.Channel, exchange: Transcript.Exchange?,
                                time: Date, to storage: inout Storage) -> (Transcript.Entry, Satisfied) {
        let entry = Transcript.Entry(sequence: storage.nextSequence, connection: connection, channel: channel, time: time, event: event, exchange: exchange)
        storage.nextSequence += 1
        let satisfied = noteEntry(entry, in: &storage)
        keep(TranscriptSlot(event, connection: connection, channel: channel, exchange: exchange, time: time, store: &storage.store), in: &storage)
        return (entry, satisfied)
    }

    /// Keeps `entry` among the unmatched ones if it is one, and takes the waiters it satisfies.
    @inline(never)
    private func noteEntry(_ entry: Transcript.Entry, in storage: inout Storage) -> Satisfied {
        if case .unmatched = entry.event { storage.unmatched.append(entry) }
        guard !storage.waiters.isEmpty else { return nil }
        var satisfied: [(CheckedContinuation<Transcript.Entry, any Error>, Transcript.Entry)] = []
        storage.waiters.removeAll { waiter in
            guard waiter.predicate(entry) else { return false }
            satisfied.append((waiter.continuation, entry))
            return true
        }
        return satisfied.isEmpty ? nil : satisfied
    }

    /// Stores `slot` (in the oldest one's place once the ring is full) and counts its bytes.
    @inline(__always)
    private func keep(_ slot: __owned TranscriptSlot, in storage: inout Storage) {
        storage.bytes += slot.payloadByteCount
        if let dropped = storage.slots.append(slot).dropped { storage.forget(dropped) }
        if storage.bytes > byteLimit { dropOverBytes(&storage) }
    }

    /// Drops the oldest entries until the kept ones hold at most ``byteLimit`` bytes, keeping the
    /// newest. The slots they leave are filled by the next entries; positions do not move.
    @inline(never)
    private func dropOverBytes(_ storage: inout Storage) {
        while storage.bytes > byteLimit, storage.slots.count > 1 {
            storage.forget(storage.slots.removeOldest(leaving: .vacant))
        }
    }
}
