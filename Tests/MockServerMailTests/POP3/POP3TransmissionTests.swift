import Foundation
import MockServerMail
import Testing

/// A message sent a part at a time: the parts, however small, join into the whole answer, and a
/// large RETR goes out in bounded sends, the commands after it waiting their turn.
@Suite("POP3 transmission")
struct POP3TransmissionTests {
    /// Lines that stress the cuts: dots, bare LF, CRLF, lone CR, empty lines, no final line end.
    static let raw = Data("H: 1\r\nH: .2\n\r\n.\r\n..a\n\n.\rb\r\r\nc\r\n.x".utf8)

    static func whole(_ raw: Data, bodyLines: Int? = nil) -> [UInt8] {
        var output: [UInt8] = []
        var transmission = POP3Transmission(raw, bodyLines: bodyLines)
        #expect(transmission.append(to: &output, limit: Int.max))
        return output
    }

    @Test("cut into parts of any size, the parts join into the answer sent at once", arguments: [1, 2, 3, 5, 8, 13])
    func parts(limit: Int) {
        for bodyLines in [nil, 0, 1, 2, 5] as [Int?] {
            var transmission = POP3Transmission(Self.raw, bodyLines: bodyLines)
            var joined: [UInt8] = []
            var calls = 0
            while true {
                var part: [UInt8] = []
                let done = transmission.append(to: &part, limit: limit)
                #expect(part.count <= limit + 5, "a part is about the limit")
                joined += part
                calls += 1
                if done { break }
                #expect(calls < 1000)
            }
            #expect(joined == Self.whole(Self.raw, bodyLines: bodyLines), "limit \(limit), body lines \(String(describing: bodyLines))")
        }
    }

    @Test("the answer at once: each rule")
    func wholeAnswer() {
        #expect(String(decoding: Self.whole(Self.raw), as: UTF8.self)
                == "H: 1\r\nH: .2\r\n\r\n..\r\n...a\r\n\r\n..\rb\r\r\nc\r\n..x\r\n.\r\n")
        #expect(String(decoding: Self.whole(Self.raw, bodyLines: 2), as: UTF8.self) == "H: 1\r\nH: .2\r\n\r\n..\r\n...a\r\n.\r\n")
    }

    @Test("stopping midway sends the bytes before the stop, stuffed, and no end line")
    func midway() {
        var transmission = POP3Transmission(Data("ab\n.cd\nef\n".utf8), stoppingAt: 5)
        var output: [UInt8] = []
        #expect(transmission.append(to: &output, limit: Int.max))
        #expect(transmission.stopsMidway)
        #expect(String(decoding: output, as: UTF8.self) == "ab\r\n..c")
    }

    @Test("a large RETR goes out in sends of about 64 KiB, then the pipelined command is answered")
    func largeRetrieve() {
        var text = ""
        var number = 0
        while text.utf8.count < 300_000 {
            number += 1
            text += number % 7 == 0 ? ".dot line \(number)\n" : "line \(number) of a long message body, with some words\r\n"
        }
        let raw = Data(text.utf8)
        let store = MailStore()
        store.deliver(raw, envelope: MailEnvelope(sender: "", recipients: ["dana@example.net"], origin: .seed(path: "big.eml")))
        var session = POP3Session(settings: POP3Settings(), store: store, timestamp: POP3TestDialogue.timestamp)
        _ = session.start()
        var input = ArraySlice(Array("USER dana@example.net\r\nPASS x\r\nRETR 1\r\nNOOP\r\n".utf8))
        _ = session.read(&input)
        _ = session.read(&input)
        var sends: [[UInt8]] = []
        var records: [String] = []
        while true {
            let before = input.count
            let actions = session.read(&input)
            for action in actions {
                switch action {
                case .send(let bytes): sends.append(bytes)
                case .record(let bytes): records.append(String(decoding: bytes, as: UTF8.self))
                default: Issue.record("unexpected \(action)")
                }
            }
            if actions.isEmpty && input.count == before { break }
        }
        #expect(records == ["RETR 1", "NOOP"])
        #expect(sends.count > 4)
        #expect(sends.dropLast().allSatisfy { $0.count <= POP3Session.transmissionChunk + 64 })
        #expect(sends.last == Array("+OK\r\n".utf8))
        let expected = Array("+OK \(POP3DotStuffing.transmittedSize(of: raw)) octets\r\n".utf8) + Self.whole(raw)
        #expect(Array(sends.dropLast().joined()) == expected)
    }

    @Test("while a message is being sent, no command is expected, and the input waits")
    func inputWaits() {
        let raw = Data(String(repeating: "x\r\n", count: 50_000).utf8)
        let store = MailStore()
        store.deliver(raw, envelope: MailEnvelope(sender: "", recipients: ["dana@example.net"], origin: .seed(path: "big.eml")))
        var session = POP3Session(settings: POP3Settings(), store: store, timestamp: POP3TestDialogue.timestamp)
        _ = session.start()
        var input = ArraySlice(Array("USER dana@example.net\r\nPASS x\r\nRETR 1\r\nSTAT\r\n".utf8))
        for _ in 0..<3 { _ = session.read(&input) }
        #expect(!session.expectsCommand)
        #expect(session.takeCommandLine(&input) == nil)
        let waiting = input.count
        #expect(session.read(&input).count == 1)
        #expect(input.count == waiting)
    }
}
