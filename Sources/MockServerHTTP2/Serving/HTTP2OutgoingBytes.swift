/// The response bytes one HTTP/2 stream has still to send, as the pieces they were given in: a
/// response's body is held as the response's own `[UInt8]` (copy-on-write: shared with the
/// responder's answer, its file cache and every other stream sending it), with how far it went,
/// never copied whole. A streamed body's sends queue behind it as pieces of their own.
///
/// Sending takes a slice of the first piece (``next(atMost:)``), which the frame writer copies into
/// the connection's output, and says how much of it went (``removeFirst(_:finished:)``).
struct HTTP2OutgoingBytes {
    /// The piece going now; empty when nothing waits.
    private var front: [UInt8] = []
    /// How much of ``front`` went.
    private var offset = 0
    /// The pieces after ``front``, in order, from ``waitingStart`` on.
    private var waiting: [[UInt8]] = []
    private var waitingStart = 0
    /// The bytes still to go.
    private(set) var count = 0

    /// Pieces under this size are joined to a small last piece, so that a streamed body's many
    /// little sends cost one piece (and one transcript entry) rather than one each.
    private static let joinLimit = 16 * 1024

    init() {}

    var isEmpty: Bool { count == 0 }

    /// Queues `bytes` after what waits, sharing their storage (a small piece may be joined to a
    /// small last piece: a copy of under 16 KiB).
    mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        count += bytes.count
        if front.isEmpty {
            front = bytes
            offset = 0
        } else if waitingStart == waiting.count {
            if bytes.count < Self.joinLimit, front.count < Self.joinLimit {
                front.append(contentsOf: bytes)
            } else {
                waiting.append(bytes)
            }
        } else if bytes.count < Self.joinLimit, waiting[waiting.count - 1].count < Self.joinLimit {
            waiting[waiting.count - 1].append(contentsOf: bytes)
        } else {
            waiting.append(bytes)
        }
    }

    /// The bytes that go next, from one piece: at most `limit` of them, a slice of its storage.
    func next(atMost limit: Int) -> ArraySlice<UInt8> {
        front[offset..<(offset + min(front.count - offset, max(0, limit)))]
    }

    /// Whether ``next(atMost:)`` with `limit` gives the last bytes waiting.
    func isLast(atMost limit: Int) -> Bool {
        waitingStart == waiting.count && front.count - offset <= limit
    }

    /// Marks the first `sent` bytes of ``next(atMost:)`` as gone; a piece that has all gone is handed
    /// to `finished` (for the transcript, shared rather than copied), and the next one comes forward.
    mutating func removeFirst(_ sent: Int, finished: ([UInt8]) -> Void) {
        guard sent > 0 else { return }
        precondition(sent <= front.count - offset, "more sent than the first piece holds")
        offset += sent
        count -= sent
        guard offset == front.count else { return }
        finished(front)
        offset = 0
        if waitingStart < waiting.count {
            front = waiting[waitingStart]
            waiting[waitingStart] = []
            waitingStart += 1
            if waitingStart == waiting.count {
                waiting.removeAll()
                waitingStart = 0
            }
        } else {
            front = []
        }
    }

    /// Forgets everything waiting (a stream reset or stalled); returns the part of the first piece
    /// that went already, if some did, which the transcript has not seen yet.
    mutating func removeAll() -> ArraySlice<UInt8>? {
        let gone = offset > 0 ? front[..<offset] : nil
        front = []
        offset = 0
        waiting = []
        waitingStart = 0
        count = 0
        return gone
    }
}
