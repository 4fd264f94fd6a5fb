import MockServerMail
import Testing

/// Seeded random dialogues (commands, SASL lines, stray bytes, over-long lines, every line end)
/// fed in random chunks: the answers never depend on how the input was cut, the script path
/// answers as `read` does, and the input the session leaves waiting stays under its limit.
@Suite("POP3 random input")
struct POP3RandomInputTests {
    static let words = ["USER dana@example.net", "PASS x", "STAT", "LIST", "LIST 2", "RETR 1", "RETR 9", "TOP 1 2", "DELE 2",
                        "RSET", "UIDL", "UIDL 1", "NOOP", "CAPA", "AUTH PLAIN", "AUTH LOGIN", "AUTH", "*", "ZGFuYQ==",
                        "APOP dana@example.net 0123456789abcdef0123456789abcdef", "STLS", ".", "", "retr 2", "QUIT"]
    static let ends = ["\r\n", "\n", "\r", " ", "\r\r\n"]

    /// A random input of about `count` pieces.
    static func input(_ generator: inout MailFaultRandom, count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 0..<count {
            switch Int.random(in: 0..<20, using: &generator) {
            case 0: bytes += (0..<Int.random(in: 1...8, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            case 1: bytes += [UInt8](repeating: UInt8(ascii: "A"), count: Int.random(in: 200...600, using: &generator))
            default: bytes += Array(words.randomElement(using: &generator)!.utf8)
            }
            bytes += Array(ends.randomElement(using: &generator)!.utf8)
        }
        return bytes
    }

    /// What a dialogue over `bytes` sends, records and why it closes, fed in chunks cut by `generator`.
    static func run(_ bytes: [UInt8], path: POP3TestDialogue.Path, cuts generator: inout MailFaultRandom?) -> (String, [String], String?) {
        // No TLS: after STLS, what is answered rightly depends on what arrived before the handshake.
        var dialogue = POP3TestDialogue(store: popStore(3), settings: POP3Settings(tls: .none), path: path)
        var offset = 0
        while offset < bytes.count {
            let size = generator.map { _ in Int.random(in: 1...40, using: &generator!) } ?? bytes.count
            let end = min(bytes.count, offset + size)
            dialogue.feed(Array(bytes[offset..<end]))
            #expect(dialogue.pending.count < POP3Settings.defaultAuthenticationLineLimit)
            offset = end
        }
        dialogue.end()
        return (dialogue.transcript, dialogue.recorded, dialogue.closed)
    }

    @Test("random dialogues: answers independent of the cuts, the script path as read, bounded input, PASS masked",
          arguments: UInt64(1)...UInt64(40))
    func randomDialogue(seed: UInt64) {
        var generator = MailFaultRandom(seed: seed)
        let bytes = Self.input(&generator, count: 60)
        var whole: MailFaultRandom? = nil
        var cuts: MailFaultRandom? = MailFaultRandom(seed: seed &* 31)
        let reference = Self.run(bytes, path: .read, cuts: &whole)
        let chunked = Self.run(bytes, path: .read, cuts: &cuts)
        cuts = MailFaultRandom(seed: seed &* 31)
        let scripted = Self.run(bytes, path: .scripted, cuts: &cuts)
        #expect(chunked.0 == reference.0, "seed \(seed)")
        #expect(chunked.1 == reference.1, "seed \(seed)")
        #expect(scripted.0 == reference.0, "seed \(seed)")
        #expect(scripted.1 == reference.1, "seed \(seed)")
        #expect(scripted.2 == reference.2, "seed \(seed)")
        #expect(reference.0.hasPrefix(POP3TestDialogue.greeting))
        // No password reaches the transcript: a PASS line is recorded masked, whatever came before.
        #expect(reference.1.allSatisfy { !$0.uppercased().hasPrefix("PASS ") || $0.hasSuffix(" MASKED") }, "seed \(seed)")
    }
}
