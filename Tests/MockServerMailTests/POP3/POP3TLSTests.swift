import MockServerMail
import Testing

/// STLS (RFC 2595) and the `--tls-required` rules: before TLS only CAPA, STLS and QUIT.
@Suite("POP3 TLS")
struct POP3TLSTests {
    static let capabilitiesBeforeLogin = "+OK\r\nCAPA\r\nTOP\r\nUIDL\r\nRESP-CODES\r\nPIPELINING\r\nAUTH-RESP-CODE\r\n"

    @Test("offered: CAPA lists STLS; STLS answers +OK and starts TLS; after it CAPA lists no STLS and STLS is refused")
    func offered() {
        var dialogue = POP3TestDialogue(store: popStore(), settings: POP3Settings(tls: .offered))
        #expect(dialogue.send("CAPA\r\n") == Self.capabilitiesBeforeLogin + "STLS\r\nUSER\r\nSASL PLAIN LOGIN CRAM-MD5 XOAUTH2\r\nIMPLEMENTATION MockServer\r\n.\r\n")
        #expect(dialogue.send("STLS\r\n") == "+OK Begin TLS negotiation now.\r\n")
        #expect(dialogue.handshakes == 1)
        #expect(dialogue.session.isSecure)
        #expect(dialogue.send("CAPA\r\n") == Self.capabilitiesBeforeLogin + "USER\r\nSASL PLAIN LOGIN CRAM-MD5 XOAUTH2\r\nIMPLEMENTATION MockServer\r\n.\r\n")
        #expect(dialogue.send("STLS\r\n") == "-ERR TLS is already active.\r\n")
        #expect(dialogue.handshakes == 1)
    }

    @Test("offered: a plain login is still accepted (only --tls-required refuses it)")
    func offeredPlainLogin() {
        var dialogue = POP3TestDialogue(store: popStore(), settings: POP3Settings(tls: .offered))
        #expect(dialogue.send("USER dana@example.net\r\nPASS x\r\n") == "+OK\r\n+OK Logged in.\r\n")
    }

    @Test("commands pipelined after STLS in the same read are discarded, never answered after the handshake")
    func pipelinedAfterSTLS() {
        var dialogue = POP3TestDialogue(store: popStore(), settings: POP3Settings(tls: .offered))
        #expect(dialogue.send("STLS\r\nUSER dana@example.net\r\nPASS x\r\n") == "+OK Begin TLS negotiation now.\r\n")
        #expect(dialogue.recorded == ["STLS"])
        #expect(dialogue.send("STAT\r\n") == "-ERR Unknown command.\r\n")
    }

    @Test("a USER given before STLS is forgotten after it (RFC 2595 §4)")
    func userForgotten() {
        var dialogue = POP3TestDialogue(store: popStore(), settings: POP3Settings(tls: .offered))
        dialogue.send("USER dana@example.net\r\n")
        dialogue.send("STLS\r\n")
        #expect(dialogue.send("PASS x\r\n") == "-ERR No username given.\r\n")
    }

    @Test("STLS drops what followed it in the same read; the session expects no command while TLS starts, and swallows input until tlsStarted()")
    func swallowsWhileStarting() {
        var session = POP3Session(settings: POP3Settings(tls: .offered), store: popStore(), timestamp: POP3TestDialogue.timestamp)
        _ = session.start()
        var input = ArraySlice(Array("STLS\r\nCAPA\r\n".utf8))
        #expect(session.read(&input) == [.record(Array("STLS".utf8)), .send(Array("+OK Begin TLS negotiation now.\r\n".utf8)), .startTLS])
        #expect(input.isEmpty, "what came after STLS is dropped in the same call, before the driver starts the handshake")
        #expect(!session.expectsCommand)
        input = ArraySlice(Array("CAPA\r\n".utf8))
        #expect(session.read(&input) == [])
        #expect(input.isEmpty)
        var more = ArraySlice(Array("CAPA\r\n".utf8))
        #expect(session.takeCommandLine(&more) == nil)
        #expect(session.read(&more) == [] && more.isEmpty)
        session.tlsStarted()
        #expect(session.expectsCommand)
    }

    @Test("required: before TLS, every login command is refused with Dovecot's text; CAPA, STLS and QUIT answered",
          arguments: ["USER dana@example.net", "PASS x", "APOP dana@example.net 0123456789abcdef0123456789abcdef", "AUTH PLAIN", "AUTH"])
    func requiredRefusesLogins(command: String) {
        var dialogue = POP3TestDialogue(store: popStore(), settings: POP3Settings(tls: .required))
        #expect(dialogue.send(command + "\r\n")
                == "-ERR [AUTH] Cleartext authentication disallowed on non-secure (SSL/TLS) connections.\r\n")
        #expect(dialogue.send("CAPA\r\n") == Self.capabilitiesBeforeLogin + "STLS\r\nIMPLEMENTATION MockServer\r\n.\r\n")
        #expect(dialogue.send("STAT\r\n") == "-ERR Unknown command.\r\n")
        #expect(dialogue.send("STLS\r\n") == "+OK Begin TLS negotiation now.\r\n")
        #expect(dialogue.send("USER dana@example.net\r\nPASS x\r\nSTAT\r\n") == "+OK\r\n+OK Logged in.\r\n+OK 2 154\r\n")
    }

    @Test("required: QUIT before TLS closes")
    func requiredQuit() {
        var dialogue = POP3TestDialogue(store: popStore(), settings: POP3Settings(tls: .required))
        #expect(dialogue.send("QUIT\r\n") == "+OK Logging out.\r\n")
        #expect(dialogue.closed == "QUIT")
    }

    @Test("none: STLS is not enabled and not listed; implicit: TLS is active from the start, logins accepted")
    func noneAndImplicit() {
        var plain = POP3TestDialogue(store: popStore(), settings: POP3Settings(tls: .none))
        #expect(plain.send("STLS\r\n") == "-ERR TLS support isn't enabled.\r\n")
        #expect(!plain.send("CAPA\r\n").contains("STLS"))
        var implicit = POP3TestDialogue(store: popStore(), settings: POP3Settings(tls: .implicit))
        #expect(implicit.session.isSecure)
        #expect(implicit.send("STLS\r\n") == "-ERR TLS is already active.\r\n")
        #expect(!implicit.send("CAPA\r\n").contains("STLS"))
        #expect(implicit.send("USER dana@example.net\r\nPASS x\r\n") == "+OK\r\n+OK Logged in.\r\n")
        #expect(implicit.handshakes == 0)
    }
}
