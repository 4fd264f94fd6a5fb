import Testing
@_spi(HotPath) import MockServerCore

/// `recordInput` and `recordOutput` (the connections' hot path, which makes no event when nothing
/// needs one) record exactly what `record(.input)` and `record(.output)` do, whatever the case:
/// compact or kept whole, another channel, an observer, a waiter.
@Suite("Transcript record path")
struct TranscriptRecordPathTests {
    static let input = InputUnit(bytes: Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
    static let long = InputUnit(bytes: [UInt8](repeating: 0x63, count: TranscriptSlot.inlineLimit + 1))

    /// Records the same inputs and outputs both ways, into two transcripts made by `make`.
    private func both(_ make: () -> Transcript) -> (direct: Transcript, events: Transcript) {
        let direct = make()
        let events = make()
        let data = Transcript.Channel("data")
        for (connection, channel) in [(1, Transcript.Channel.main), (2, data), (Int(UInt32.max) + 1, .main)] {
            for (unit, response) in [(Self.input, "hello"), (Self.input, nil), (InputUnit(""), ""), (Self.long, "big")] as [(InputUnit, String?)] {
                direct.recordInput(unit, response: response, connection: connection, channel: channel)
                events.record(.input(unit, response: response), connection: connection, channel: channel)
            }
            for bytes in [Array("HTTP/1.1 200 OK\r\n\r\n".utf8), [], Self.long.bytes] {
                direct.recordOutput(bytes, connection: connection, channel: channel)
                events.record(.output(bytes), connection: connection, channel: channel)
            }
        }
        return (direct, events)
    }

    /// The entries less their times (each way reads the clock itself).
    private func timeless(_ transcript: Transcript) -> [String] {
        transcript.entries.map { "\($0.sequence) \($0.connection) \($0.channel) \($0.event) \($0.exchange.map(String.init(describing:)) ?? "-")" }
    }

    @Test("without an observer: the same entries, numbers and byte count, compact or kept whole")
    func plain() {
        let (direct, events) = both { Transcript() }
        #expect(direct.entries.count == 21)
        #expect(timeless(direct) == timeless(events))
        #expect(direct.byteCount == events.byteCount)
        #expect(direct.inputs == events.inputs)
    }

    @Test("with an observer: it sees every entry, as recorded")
    func observed() {
        let seen = Locked<[Transcript.Entry]>([])
        let (direct, events) = both { Transcript(observer: { entry in seen.withLock { $0.append(entry) } }) }
        #expect(timeless(direct) == timeless(events))
        #expect(seen.withLock { $0.count } == 42)
    }

    @Test("waits for an input and an output end with what recordInput and recordOutput recorded")
    func waiters() async throws {
        let transcript = Transcript()
        async let input = transcript.wait(timeout: .seconds(30)) { if case .input = $0.event { true } else { false } }
        async let output = transcript.wait(timeout: .seconds(30)) { if case .output = $0.event { true } else { false } }
        transcript.recordInput(Self.input, response: "r", connection: 1, channel: .main)
        transcript.recordOutput([1, 2], connection: 1, channel: .main)
        #expect(try await input.event == .input(Self.input, response: "r"))
        #expect(try await output.event == .output([1, 2]))
    }
}
