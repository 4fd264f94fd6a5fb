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
        /// The kept entries, in a ring once the limit is reached, in segments that never move as it grows.
        var entries: SegmentedRing<Transcript.Entry>
        var unmatched: [Transcript.Entry] = []
        var dropped = 0
        /// The bytes of input and output the kept entries hold (``Transcript/Event/payloadByteCount``).
        var bytes = 0
        var nextSequence = 0
        var waiters: [Waiter] = []
        var nextWaiterID: UInt64 = 0

        /// The kept entries, oldest first.
        var ordered: [Transcript.Entry] { entries.ordered }
    }

    /// How many entries are kept.
    public let limit: Int
    /// How many bytes of input and output the kept entries may hold between them; past it the
    /// oldest are dropped (the newest entry is always kept, whatever its size).
    public let byteLimit: Int
    /// The default ``byteLimit``: 64 MiB.
    public static let defaultByteLimit = 64 << 20
    /// What takes a dropped entry's slot until a new one fills it: it holds no bytes.
    private static let vacant = Transcript.Entry(sequence: -1, connection: 0, channel: .main, time: Date(timeIntervalSince1970: 0), event: .sent(0))
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
        storage = Locked(Storage(entries: SegmentedRing(limit: self.limit)))
    }

    /// The kept entries, oldest first.
    public var entries: [Transcript.Entry] { storage.withLock { $0.ordered } }

    /// Every input that matched no response, oldest first.
    public var unmatched: [Transcript.Entry] { storage.withLock { $0.unmatched } }

    /// How many of the oldest entries were dropped to stay within ``limit`` and ``byteLimit``.
    public var droppedCount: Int { storage.withLock { $0.dropped } }

    /// The bytes of input and output the kept entries hold, counted against ``byteLimit``.
    package var byteCount: Int { storage.withLock { $0.bytes } }

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
            $0.entries.removeAll()
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
                    if let entry = storage.entries.first(where: predicate) { return entry }
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

    /// Appends an entry (of `exchange`, when the input came on one of several). Called by the
    /// server's connections.
    ///
    /// `event` is taken, and moves into its entry through `pending` rather than being copied under
    /// the lock (a copy retains each of its parts, and the caller's original is then destroyed).
    /// Without an observer, the usual case, nothing is read back out of the storage, nor is an
    /// optional entry made and destroyed.
    package func record(_ event: __owned Transcript.Event, connection: Int, channel: Transcript.Channel, exchange: Transcript.Exchange? = nil) {
        var satisfied: [(CheckedContinuation<Transcript.Entry, any Error>, Transcript.Entry)] = []
        var pending: Transcript.Event? = event
        guard let observer else {
            storage.withLock { storage in
                _ = append(pending.take()!, connection: connection, channel: channel, exchange: exchange, time: Date(), to: &storage, satisfying: &satisfied)
            }
            for (continuation, entry) in satisfied { continuation.resume(returning: entry) }
            return
        }
        let observed = storage.withLock { storage in
            let index = append(pending.take()!, connection: connection, channel: channel, exchange: exchange, time: Date(), to: &storage, satisfying: &satisfied)
            return storage.entries[index]
        }
        for (continuation, entry) in satisfied { continuation.resume(returning: entry) }
        observer(observed)
    }

    /// Appends entries for `events`, in order and with one time, as one step: nothing is recorded
    /// between them. Called for what is known at once (an in-process answer's whole exchange).
    package func record(_ events: [Transcript.Event], connection: Int, channel: Transcript.Channel) {
        var satisfied: [(CheckedContinuation<Transcript.Entry, any Error>, Transcript.Entry)] = []
        let time = Date()
        let recorded = storage.withLock { storage -> [Transcript.Entry] in
            var recorded: [Transcript.Entry] = []
            for event in events {
                let index = append(event, connection: connection, channel: channel, exchange: nil, time: time, to: &storage, satisfying: &satisfied)
                if observer != nil { recorded.append(storage.entries[index]) }
            }
            return recorded
        }
        for (continuation, entry) in satisfied { continuation.resume(returning: entry) }
        if let observer { recorded.forEach(observer) }
    }

    /// Appends one entry under the lock, takes the waiters it satisfies, and returns its position
    /// in `storage.entries`.
    @inline(__always)
    private func append(_ event: __owned Transcript.Event, connection: Int, channel: Transcript.Channel, exchange: Transcript.Exchange?, time: Date,
                        to storage: inout Storage,
                        satisfying satisfied: inout [(CheckedContinuation<Transcript.Entry, any Error>, Transcript.Entry)]) -> Int {
        // Read before the event moves into its entry.
        let weight = event.payloadByteCount
        let entry = Transcript.Entry(sequence: storage.nextSequence, connection: connection, channel: channel, time: time, event: event,
                                     exchange: exchange)
        storage.nextSequence += 1
        if case .unmatched = event { storage.unmatched.append(entry) }
        if !storage.waiters.isEmpty {
            storage.waiters.removeAll { waiter in
                guard waiter.predicate(entry) else { return false }
                satisfied.append((waiter.continuation, entry))
                return true
            }
        }
        storage.bytes += weight
        // Stored last, so that the entry moves into its place rather than being copied. Once full, the
        // newest entry takes the oldest one's place.
        let (position, dropped) = storage.entries.append(entry)
        if let dropped {
            storage.dropped += 1
            storage.bytes -= dropped.event.payloadByteCount
        }
        if storage.bytes > byteLimit { dropOverBytes(&storage) }
        return position
    }

    /// Drops the oldest entries until the kept ones hold at most ``byteLimit`` bytes, keeping the
    /// newest. The slots they leave are filled by the next entries; positions do not move.
    @inline(never)
    private func dropOverBytes(_ storage: inout Storage) {
        while storage.bytes > byteLimit, storage.entries.count > 1 {
            let dropped = storage.entries.removeOldest(leaving: Self.vacant)
            storage.dropped += 1
            storage.bytes -= dropped.event.payloadByteCount
        }
    }
}
