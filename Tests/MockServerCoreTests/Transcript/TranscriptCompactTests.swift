import Foundation
import Testing
@_spi(HotPath) import MockServerCore

/// The transcript keeps its entries compact (``TranscriptSlot`` and ``TranscriptBytes``) and gives
/// back what was recorded: every event, channel, exchange, connection and time.
@Suite("Transcript compact storage")
struct TranscriptCompactTests {
    @Test("every kind of event reads back as recorded, compact or kept whole, with its connection, channel, exchange, sequence and time")
    func roundTrip() {
        let transcript = Transcript()
        let data = Transcript.Channel("data")
        let stream = Transcript.Exchange(protocolName: "HTTP/2", stream: 3)
        let input = InputUnit(bytes: Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
        let recorded: [(Transcript.Event, Int, Transcript.Channel, Transcript.Exchange?)] = [
            (.connected(peer: "127.0.0.1:50000"), 1, .main, nil),
            (.connected(peer: "[::1]:50001"), 2, .main, nil),
            (.input(input, response: "hello"), 1, .main, nil),
            (.input(input, response: nil), 1, .main, nil),
            (.input(input, response: ""), 1, .main, nil),
            (.input(InputUnit(""), response: "é"), 1, .main, nil),
            (.unmatched(input), 2, .main, nil),
            (.output(Array("HTTP/1.1 200 OK\r\n\r\n".utf8)), 1, .main, nil),
            (.output([]), 1, .main, nil),
            (.output([UInt8](repeating: 0x61, count: TranscriptSlot.inlineLimit)), 1, .main, nil),
            (.output([UInt8](repeating: 0x62, count: TranscriptSlot.inlineLimit + 1)), 1, .main, nil),
            (.input(InputUnit(bytes: [UInt8](repeating: 0x63, count: 5_000)), response: "big"), 1, .main, nil),
            (.input(input, response: "hello"), 1, .main, stream),
            (.output(Array("on data".utf8)), 3, data, nil),
            (.input(input, response: "far"), Int(UInt32.max) + 1, .main, nil),
            (.sent(5), 3, data, nil),
            (.received(7), 3, data, nil),
            (.note(Transcript.Note(kind: "k", text: "t", bytes: 4)), 1, .main, nil),
            (.note(Transcript.Note(kind: "websocket-open", text: "<- GET /: WebSocket open")), 1, .main, nil),
            (.note(Transcript.Note(kind: "", text: "")), 1, .main, nil),
            (.uploaded(name: "f", byteCount: 3), 1, .main, nil),
            (.paused(.milliseconds(5)), 1, .main, nil),
            (.switchedSet("second"), 1, .main, nil),
            (.closed(.peerClosed), 1, .main, nil),
        ]
        let before = Date()
        for (event, connection, channel, exchange) in recorded {
            transcript.record(event, connection: connection, channel: channel, exchange: exchange)
        }
        let after = Date()
        let entries = transcript.entries
        #expect(entries.count == recorded.count)
        for (index, (entry, expected)) in zip(entries, recorded).enumerated() {
            #expect(entry.sequence == index)
            #expect(entry.event == expected.0, "\(entry)")
            #expect(entry.connection == expected.1)
            #expect(entry.channel == expected.2)
            #expect(entry.exchange == expected.3)
            #expect(entry.time >= before && entry.time <= after)
        }
        #expect(transcript.unmatched.map(\.sequence) == [6])
        #expect(transcript.byteCount == recorded.reduce(0) { $0 + $1.0.payloadByteCount })
    }

    @Test("an input's text is made again from its bytes: bad UTF-8 keeps its bytes and shows U+FFFD, as when it was recorded")
    func badUTF8() {
        let transcript = Transcript()
        let bytes: [UInt8] = [0x47, 0x45, 0x54, 0x20, 0xFF, 0xC3, 0x28, 0xE2, 0x82]
        let recorded = InputUnit(bytes: bytes)
        transcript.record(.input(recorded, response: "r"), connection: 1, channel: .main)
        transcript.record(.unmatched(recorded), connection: 1, channel: .main)
        for entry in transcript.entries {
            guard case .input(let unit, _) = entry.event else {
                guard case .unmatched(let unit) = entry.event else { Issue.record("\(entry)"); continue }
                #expect(unit.bytes == bytes)
                #expect(unit.text == recorded.text)
                continue
            }
            #expect(unit.bytes == bytes)
            #expect(unit.text == recorded.text)
            #expect(unit.text.contains("\u{FFFD}"))
            #expect(!unit.isValidUTF8)
        }
    }

    @Test("a ring that wraps many times over keeps its newest entries, their bytes intact, and frees the store's older chunks")
    func ringWrap() {
        let transcript = Transcript(limit: 50)
        for number in 0..<20_000 {
            let body = [UInt8](repeating: UInt8(truncatingIfNeeded: number), count: number % 700)
            transcript.record(.output(body), connection: number, channel: .main)
            if number % 3 == 0 { transcript.record(.closed(.peerClosed), connection: number, channel: .main) }
        }
        let entries = transcript.entries
        #expect(entries.count == 50)
        #expect(entries.map(\.sequence) == Array((transcript.droppedCount)..<(transcript.droppedCount + 50)))
        for entry in entries {
            guard case .output(let bytes) = entry.event else { continue }
            #expect(bytes == [UInt8](repeating: UInt8(truncatingIfNeeded: entry.connection), count: entry.connection % 700))
        }
        #expect(transcript.byteCount == entries.reduce(0) { $0 + $1.event.payloadByteCount })
        // 50 entries of at most 700 bytes: three 32 KiB chunks at most, however many went before.
        #expect(transcript.storeChunkCount <= 3)
        transcript.removeAll()
        #expect(transcript.storeChunkCount == 0)
        transcript.record(.output([1, 2]), connection: 1, channel: .main)
        #expect(transcript.entries.map(\.event) == [.output([1, 2])])
        #expect(transcript.entries.map(\.sequence) == [20_000 + 6_667])
    }

    @Test("the byte budget counts inputs and outputs, not response names or peers, and frees the store's chunks as it drops")
    func byteBudget() {
        let transcript = Transcript(limit: 100_000, byteLimit: 10_000)
        let name = String(repeating: "n", count: 500)
        for _ in 0..<1_000 {
            transcript.record(.connected(peer: "127.0.0.1:1"), connection: 1, channel: .main)
            transcript.record(.input(InputUnit(bytes: [UInt8](repeating: 0x41, count: 100)), response: name), connection: 1, channel: .main)
        }
        #expect(transcript.byteCount == 10_000)
        let entries = transcript.entries
        #expect(entries.count == 200)
        #expect(entries.last?.event == .input(InputUnit(bytes: [UInt8](repeating: 0x41, count: 100)), response: name))
        // 200 entries of about 600 bytes of names and inputs: a few 32 KiB chunks, not 1,000 entries' worth.
        #expect(transcript.storeChunkCount <= 5)
    }

    @Test("a waiter and an observer see the entry as recorded; a wait finds one already kept")
    func waitersAndObserver() async throws {
        let seen = Locked<[Transcript.Entry]>([])
        let transcript = Transcript(observer: { entry in seen.withLock { $0.append(entry) } })
        transcript.record(.input(InputUnit("PING"), response: "pong"), connection: 4, channel: .main)
        let found = try await transcript.wait(timeout: .seconds(5)) { $0.event == .input(InputUnit("PING"), response: "pong") }
        #expect(found.connection == 4)
        async let later = transcript.wait(timeout: .seconds(5)) { $0.connection == 5 }
        transcript.record(.output(Array("+PONG".utf8)), connection: 5, channel: .main)
        let waited = try await later
        #expect(waited.event == .output(Array("+PONG".utf8)))
        #expect(seen.withLock { $0.map(\.sequence) } == [0, 1])
        #expect(seen.withLock { $0.map(\.event) } == transcript.entries.map(\.event))
    }
}
