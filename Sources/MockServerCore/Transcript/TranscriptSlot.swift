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
    @inline(__always)
    package init(_ event: __owned Transcript.Event, connection: Int, channel: Transcript.Channel, exchange: Transcript.Exchange?, time: Date,
                 store: inout TranscriptBytes) {
        let seconds = time.timeIntervalSinceReferenceDate
        if exchange == nil, connection >= 0, connection <= Int(UInt32.max), channel == .main,
           let compact = Self.compact(event, connection: UInt32(connection), time: seconds, store: &store) {
            self = compact
            return
        }
        self.init(time: seconds, start: 0, extra: Extra(connection: connection, channel: channel, event: event, exchange: exchange),
                  connection: 0, count: 0, nameCount: 0, kind: .extra)
    }

    /// The compact slot of `event`, or `nil` when it has none.
    @inline(__always)
    private static func compact(_ event: Transcript.Event, connection: UInt32, time: Double, store: inout TranscriptBytes) -> TranscriptSlot? {
        let limit = min(inlineLimit, store.chunkSize)
        switch event {
        case .input(let unit, let response):
            var name = response ?? ""
            let nameCount = name.utf8.count
            guard nameCount < Int(noName), nameCount + unit.bytes.count <= limit else { return nil }
            let start = name.withUTF8 { name in unit.bytes.withUnsafeBytes { store.append(UnsafeRawBufferPointer(name), $0) } }
            return TranscriptSlot(time: time, start: start, extra: nil, connection: connection, count: UInt32(nameCount + unit.bytes.count),
                                  nameCount: response == nil ? noName : UInt16(nameCount), kind: .input)
        case .output(let bytes):
            guard bytes.count <= limit else { return nil }
            let start = bytes.withUnsafeBytes { store.append($0) }
            return TranscriptSlot(time: time, start: start, extra: nil, connection: connection, count: UInt32(bytes.count), nameCount: 0, kind: .output)
        case .connected(let peer):
            var peer = peer
            guard peer.utf8.count <= limit else { return nil }
            let start = peer.withUTF8 { store.append(UnsafeRawBufferPointer($0)) }
            return TranscriptSlot(time: time, start: start, extra: nil, connection: connection, count: UInt32(peer.utf8.count), nameCount: 0, kind: .connected)
        case .note(let note):
            var kind = note.kind
            var text = note.text
            let kindCount = kind.utf8.count
            guard note.bytes == nil, kindCount < Int(noName), kindCount + text.utf8.count <= limit else { return nil }
            let start = kind.withUTF8 { kind in text.withUTF8 { store.append(UnsafeRawBufferPointer(kind), UnsafeRawBufferPointer($0)) } }
            return TranscriptSlot(time: time, start: start, extra: nil, connection: connection, count: UInt32(kindCount + text.utf8.count),
                                  nameCount: UInt16(kindCount), kind: .note)
        case .unmatched(let unit):
            guard unit.bytes.count <= limit else { return nil }
            let start = unit.bytes.withUnsafeBytes { store.append($0) }
            return TranscriptSlot(time: time, start: start, extra: nil, connection: connection, count: UInt32(unit.bytes.count), nameCount: 0, kind: .unmatched)
        default:
            return nil
        }
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
