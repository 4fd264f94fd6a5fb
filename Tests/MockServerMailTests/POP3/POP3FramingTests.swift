import MockServerMail
import Testing

/// The command line limit (RFC 2449 §4: 255 octets with CRLF): an over-long line gets one
/// `-ERR` and is never split into commands.
@Suite("POP3 framing")
struct POP3FramingTests {
    static let tooLong = "-ERR Input line too long.\r\n"

    @Test("a line of exactly 255 octets with its CRLF is a command; one octet more is too long")
    func limit() {
        var dialogue = POP3TestDialogue(store: popStore())
        let fits = "NOOP " + String(repeating: "x", count: 255 - 7)
        #expect(dialogue.send(fits + "\r\n") == "-ERR Unknown command.\r\n")
        #expect(dialogue.send(fits + "x\r\n") == Self.tooLong)
        #expect(dialogue.send("CAPA\r\n").hasPrefix("+OK\r\n"))
    }

    @Test("an over-long line gets one -ERR however it is split, and what follows its LF is answered",
          arguments: [1, 5, 100, 254, 255, 256, Int.max], [POP3TestDialogue.Path.read, .scripted])
    func oneAnswer(chunk: Int, path: POP3TestDialogue.Path) {
        var dialogue = POP3TestDialogue(store: popStore(), path: path)
        let long = "USER " + String(repeating: "QUIT\r", count: 200)
        #expect(dialogue.send(long + "\r\nQUIT\r\n", chunk: chunk) == Self.tooLong + "+OK Logging out.\r\n")
        #expect(dialogue.recorded.count == 2)
        #expect(dialogue.recorded.first?.utf8.count == 255)
        #expect(dialogue.recorded.last == "QUIT")
    }

    @Test("an over-long PASS is recorded with its password masked, as a short one")
    func longPassMasked() {
        var dialogue = POP3TestDialogue(store: popStore())
        dialogue.send("USER dana@example.net\r\n")
        #expect(dialogue.send("PASS " + String(repeating: "s", count: 400) + "\r\n") == Self.tooLong)
        #expect(dialogue.recorded == ["USER dana@example.net", "PASS MASKED"])
    }

    @Test("a line that never ends is consumed as it comes, answered once: the input held stays bounded")
    func neverEnds() {
        var dialogue = POP3TestDialogue(store: popStore())
        var answers = ""
        for _ in 0..<100 { answers += dialogue.send(String(repeating: "A", count: 1000)) }
        #expect(answers == Self.tooLong)
        #expect(dialogue.pending.isEmpty)
        #expect(dialogue.send("\nNOOP\r\n") == "-ERR Unknown command.\r\n")
    }

    @Test("a partial command waits: nothing consumed, nothing answered, until its LF")
    func partial() {
        var session = POP3Session(settings: POP3Settings(), store: popStore(), timestamp: POP3TestDialogue.timestamp)
        _ = session.start()
        var input = ArraySlice(Array("CAP".utf8))
        #expect(session.takeCommandLine(&input) == nil)
        #expect(session.read(&input) == [])
        #expect(input.count == 3)
    }

    @Test("takeCommandLine cuts one line without CRLF or LF; an over-long one is left for read")
    func takeCommandLine() {
        let session = POP3Session(settings: POP3Settings(commandLineLimit: 20), store: popStore(), timestamp: POP3TestDialogue.timestamp)
        var started = session
        _ = started.start()
        var input = ArraySlice(Array("STAT\r\nLIST\nX".utf8))
        #expect(started.takeCommandLine(&input).map { Array($0) } == Array("STAT".utf8))
        #expect(started.takeCommandLine(&input).map { Array($0) } == Array("LIST".utf8))
        #expect(started.takeCommandLine(&input) == nil)
        #expect(Array(input) == Array("X".utf8))
        var long = ArraySlice(Array((String(repeating: "N", count: 30) + "\r\n").utf8))
        #expect(started.takeCommandLine(&long) == nil)
        #expect(long.count == 32)
        #expect(started.read(&long) == [MailAction.record(Array(String(repeating: "N", count: 20).utf8)), .send(Array(Self.tooLong.utf8))])
        #expect(session.expectsCommand == false, "not before start()")
    }
}
