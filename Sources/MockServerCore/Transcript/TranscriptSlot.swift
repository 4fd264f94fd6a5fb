import Foundation

/// One transcript entry as the transcript keeps it: 40 bytes in its ring, its bytes in the
/// transcript's ``TranscriptBytes``, rather than a ``Transcript/Entry`` (120 bytes, and an array and
/// a string of its own for an input).
///
/// The common entries of a connection's main channel (connected, an input with its response's name,
/// an unmatched input, an output of at most ``inlineLimit`` bytes, a note without a byte count) keep their bytes in the store:
/// an input's bytes alone, its text being made again from them when the entry is read (the text is
/// always the bytes decoded, bad UTF-8 repaired, so nothing is lost). Every other entry (a note, a
/// close, another channel, an HTTP/2 exchange, a longer payload, which may share its storage with
/// what is still being sent) keeps its event whole out of line, in an ``Extra``.
package struct TranscriptSlot {
    /// What a slot holds.
    package enum Kind: UInt8 {
        /// ``Transcript/Event/connected(peer:)``: the peer's address in the store.
        case connected
        /// ``Transcript/Event/input(_:response:)``: the response's name, then the input's bytes.
        case input
        /// ``Transcript/Event/unmatched(_:)``: the input's bytes.
        case unmatched
        /// ``Transcript/Event/output(_:)``: the bytes.
        case output
        /// ``Transcript/Event/note(_:)`` of a note without a byte count: its kind, then its text.
        case note
        /// Anything else: ``extra``.
        case extra
    }

    /// An entry kept whole, out of line.
    package final class Extra: Sendable {
        let connection: Int
        let channel: Transcript.Channel
        let event: Transcript.Event
        let exchange: Transcript.Exchange?

        init(connection: Int, channel: Transcript.Channel, event: Transcript.Event, exchange: Transcript.Exchange?) {
            self.connection = connection
            self.channel = channel
            self.event = event
            self.exchange = exchange
        }
    }

    /// The longest input or output (with its response's name) kept in the store.
    package static let inlineLimit = 1024
    /// ``nameCount`` of an input that no response named.
    private static let noName = UInt16.max

    /// The time, as `Date.timeIntervalSinceReferenceDate`.
    private var time: Double
    /// Where the bytes start in the store.
    private var start: Int
    /// The entry, for ``Kind/extra``.
    private var extra: Extra?
    private var connection: UInt32
    /// How many bytes are in the store.
    private var count: UInt32
    /// How many of them are the response's name, for ``Kind/input``, or the note's kind, for ``Kind/note``.
    private var nameCount: UInt16
    package private(set) var kind: Kind

    /// What takes a dropped entry's place until a new one fills it: it holds no bytes.
    package static let vacant = TranscriptSlot(time: 0, start: 0, extra: nil, connection: 0, count: 0, nameCount: 0, kind: .output)

    private init(time: Double, start: Int, extra: Extra?, connection: UInt32, count: UInt32, nameCount: UInt16, kind: Kind) {
        self.time = time
        self.start = start
        self.extra = extra
        self.connection = connection
        self.count = count
        self.nameCount = nameCount
        self.kind = kind
    }

    /// The slot of `event`, its bytes stored in `store` when it has a compact form.
    ///
    /// `event` is taken apart where it is (`switch consume`): its parts are read in place and
    /// destroyed once, not copied out and released beside the original.
    @inline(__always)
    package init(_ event: __owned Transcript.Event, connection: Int, channel: Transcript.Channel, exchange: Transcript.Exchange?, time: Date,
                 store: inout TranscriptBytes) {
        let seconds = time.timeIntervalSinceReferenceDate
        guard exchange == nil, connection >= 0, connection <= Int(UInt32.max), channel == .main else {
            self.init(extra: event, connection: connection, channel: channel, exchange: exchange, time: seconds)
            return
        }
        let number = UInt32(truncatingIfNeeded: connection)
        let limit = min(Self.inlineLimit, store.chunkSize)
        switch consume event {
        case .input(let unit, let response):
            if let slot = TranscriptSlot(input: unit, response: response, connection: connection, time: time, store: &store) {
                self = slot
            } else {
                self.init(extra: .input(unit, response: response), connection: connection, channel: channel, exchange: nil, time: seconds)
            }
        case .output(let bytes):
            if let slot = TranscriptSlot(output: bytes, connection: connection, time: time, store: &store) {
                self = slot
            } else {
                self.init(extra: .output(bytes), connection: connection, channel: channel, exchange: nil, time: seconds)
            }
        case .unmatched(let unit):
            guard unit.bytes.count <= limit else {
                self.init(extra: .unmatched(unit), connection: connection, channel: channel, exchange: nil, time: seconds)
                return
            }
            let start = Self.store(nil, unit.bytes, in: &store)
            self.init(time: seconds, start: start, extra: nil, connection: number, count: UInt32(truncatingIfNeeded: unit.bytes.count), nameCount: 0,
                      kind: .unmatched)
        case .connected(let peer):
            let count = peer.utf8.count
            guard count <= limit else {
                self.init(extra: .connected(peer: peer), connection: connection, channel: channel, exchange: nil, time: seconds)
                return
            }
            let start = Self.withUTF8(peer) { store.append($0) }
            self.init(time: seconds, start: start, extra: nil, connection: number, count: UInt32(truncatingIfNeeded: count), nameCount: 0, kind: .connected)
        case .note(let note):
            // A note with a byte count is kept whole, its text not read (it may render when read).
            guard note.bytes == nil else {
                self.init(extra: .note(note), connection: connection, channel: channel, exchange: nil, time: seconds)
                return
            }
            let kindCount = note.kind.utf8.count
            let count = kindCount + note.text.utf8.count
            guard kindCount < Int(Self.noName), count <= limit else {
                self.init(extra: .note(note), connection: connection, channel: channel, exchange: nil, time: seconds)
                return
            }
            let start = Self.withUTF8(note.kind) { kind in Self.withUTF8(note.text) { store.append(kind, $0) } }
            self.init(time: seconds, start: start, extra: nil, connection: number, count: UInt32(truncatingIfNeeded: count),
                      nameCount: UInt16(truncatingIfNeeded: kindCount), kind: .note)
        case let other:
            self.init(extra: other, connection: connection, channel: channel, exchange: nil, time: seconds)
        }
    }

    /// The compact slot of an input of `unit` that `response` answered, its bytes stored in
    /// `store`, read in place; `nil` when it has none (too long, or a connection number past 32 bits).
    @inline(__always)
    package init?(input unit: InputUnit, response: String?, connection: Int, time: Date, store: inout TranscriptBytes) {
        let nameCount = response?.utf8.count ?? 0
        let count = nameCount + unit.bytes.count
        guard connection >= 0, connection <= Int(UInt32.max), nameCount < Int(Self.noName), count <= min(Self.inlineLimit, store.chunkSize) else {
            return nil
        }
        let start = Self.store(response, unit.bytes, in: &store)
        self.init(time: time.timeIntervalSinceReferenceDate, start: start, extra: nil, connection: UInt32(truncatingIfNeeded: connection),
                  count: UInt32(truncatingIfNeeded: count), nameCount: response == nil ? Self.noName : UInt16(truncatingIfNeeded: nameCount), kind: .input)
    }

    /// The compact slot of an output of `bytes`, stored in `store`, read in place; `nil` when it
    /// has none.
    @inline(__always)
    package init?(output bytes: [UInt8], connection: Int, time: Date, store: inout TranscriptBytes) {
        guard connection >= 0, connection <= Int(UInt32.max), bytes.count <= min(Self.inlineLimit, store.chunkSize) else { return nil }
        let start = Self.store(nil, bytes, in: &store)
        self.init(time: time.timeIntervalSinceReferenceDate, start: start, extra: nil, connection: UInt32(truncatingIfNeeded: connection),
                  count: UInt32(truncatingIfNeeded: bytes.count), nameCount: 0, kind: .output)
    }

    /// The slot of an entry kept whole, out of line.
    private init(extra event: __owned Transcript.Event, connection: Int, channel: Transcript.Channel, exchange: Transcript.Exchange?, time: Double) {
        self.init(time: time, start: 0, extra: Extra(connection: connection, channel: channel, event: event, exchange: exchange),
                  connection: 0, count: 0, nameCount: 0, kind: .extra)
    }

    /// Stores `name`'s UTF-8 (if any) then `bytes` in `store` as one run, both read in place, and
    /// returns where it starts.
    @inline(__always)
    private static func store(_ name: String?, _ bytes: [UInt8], in store: inout TranscriptBytes) -> Int {
        bytes.withUnsafeBytes { bytes in
            guard let name else { return store.append(bytes) }
            return withUTF8(name) { store.append($0, bytes) }
        }
    }

    /// Calls `body` with `string`'s UTF-8, in place when the string is native (a copy otherwise).
    @inline(__always)
    private static func withUTF8<Result>(_ string: String, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        if let result = string.utf8.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) { return result }
        var copy = string
        return copy.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }

    /// The bytes of input and output the entry holds, as ``Transcript/Event/payloadByteCount`` counts them.
    package var payloadByteCount: Int {
        switch kind {
        case .connected, .note: 0
        case .input: Int(count) - (nameCount == Self.noName ? 0 : Int(nameCount))
        case .unmatched, .output: Int(count)
        case .extra: extra?.event.payloadByteCount ?? 0
        }
    }

    /// Where the store's bytes of this entry end (nothing before it is needed once it goes), or
    /// `nil` when it keeps none there.
    package var storeEnd: Int? { kind == .extra ? nil : start + Int(count) }

    /// The entry, numbered `sequence`, its bytes read from `store`.
    package func entry(sequence: Int, store: TranscriptBytes) -> Transcript.Entry {
        let time = Date(timeIntervalSinceReferenceDate: time)
        if let extra {
            return Transcript.Entry(sequence: sequence, connection: extra.connection, channel: extra.channel, time: time, event: extra.event,
                                    exchange: extra.exchange)
        }
        let event: Transcript.Event
        switch kind {
        case .connected:
            event = .connected(peer: store.string(at: start, count: Int(count)))
        case .input:
            let names = nameCount == Self.noName ? 0 : Int(nameCount)
            let name = nameCount == Self.noName ? nil : store.string(at: start, count: names)
            event = .input(InputUnit(bytes: store.bytes(at: start + names, count: Int(count) - names)), response: name)
        case .unmatched:
            event = .unmatched(InputUnit(bytes: store.bytes(at: start, count: Int(count))))
        case .note:
            let kind = store.string(at: start, count: Int(nameCount))
            event = .note(Transcript.Note(kind: kind, text: store.string(at: start + Int(nameCount), count: Int(count) - Int(nameCount))))
        case .output, .extra:
            event = .output(store.bytes(at: start, count: Int(count)))
        }
        return Transcript.Entry(sequence: sequence, connection: Int(connection), channel: .main, time: time, event: event)
    }
}
