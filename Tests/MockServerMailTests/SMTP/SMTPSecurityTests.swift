import Foundation
@testable import MockServerMail
import Testing

/// STARTTLS, TLS required, implicit TLS and AUTH in an SMTP session.
@Suite("SMTP session: TLS and AUTH")
struct SMTPSecurityTests {
    static let accounts = MailUsers(accounts: [MailboxAddress("dana@example.net"): "s3cret"])

    static func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }

    @Test("STARTTLS: commands pipelined after it are discarded, never answered; after the handshake the session starts over")
    func startTLS() throws {
        var dialogue = SMTPTestDialogue(SMTPSettings(hostName: "mx.test", tls: .offered))
        #expect(dialogue.send("EHLO c\r\n").contains("250-STARTTLS\r\n"))
        #expect(dialogue.send("STARTTLS extra\r\n") == "501 5.5.4 Syntax: STARTTLS\r\n")
        let text = dialogue.send("STARTTLS\r\nMAIL FROM:<evil@b.test>\r\nRCPT TO:<c@d.test>\r\n")
        #expect(text == "220 2.0.0 Ready to start TLS\r\n")
        #expect(dialogue.startTLSRequested && dialogue.buffer.isEmpty && !dialogue.session.expectsCommand)
        dialogue.handshake()
        #expect(dialogue.send("MAIL FROM:<a@b.test>\r\n") == "503 5.5.1 Error: send HELO/EHLO first\r\n")
        let ehlo = dialogue.send("EHLO c\r\n")
        #expect(!ehlo.contains("STARTTLS") && ehlo.contains("250-AUTH "))
        #expect(dialogue.send("STARTTLS\r\n") == "554 5.5.1 Error: TLS already active\r\n")
        dialogue.send("MAIL FROM:<a@b.test>\r\nRCPT TO:<c@d.test>\r\nDATA\r\nx\r\n.\r\n")
        let origin = try #require(dialogue.delivered.first).envelope.origin
        guard case .smtp(_, _, .startTLS, nil) = origin else { Issue.record("\(origin)"); return }
        #expect(dialogue.records.filter { $0.contains("evil") }.isEmpty)
    }

    @Test("the driver's own path: after command(_:) gives .startTLS, read(_:) discards what is held")
    func startTLSViaCommand() {
        var dialogue = SMTPTestDialogue(SMTPSettings(tls: .offered))
        dialogue.run(dialogue.session.command(ArraySlice("STARTTLS".utf8)))
        #expect(dialogue.startTLSRequested)
        var held = ArraySlice("NOOP\r\n".utf8)
        #expect(dialogue.session.read(&held).isEmpty && held.isEmpty)
    }

    @Test("TLS required: before TLS only EHLO, HELO, NOOP, QUIT and STARTTLS; AUTH offered only under TLS")
    func tlsRequired() {
        var dialogue = SMTPTestDialogue(SMTPSettings(hostName: "mx.test", tls: .required))
        let ehlo = dialogue.send("EHLO c\r\n")
        #expect(ehlo.contains("250-STARTTLS") && !ehlo.contains("AUTH"))
        for command in ["MAIL FROM:<a@b.test>", "RCPT TO:<a@b.test>", "DATA", "AUTH PLAIN", "VRFY x", "HELP", "RSET", "XYZZY"] {
            #expect(dialogue.send(command + "\r\n") == "530 5.7.0 Must issue a STARTTLS command first\r\n", "\(command)")
        }
        // A BDAT's chunk is read before its refusal, so that it is not taken for commands.
        #expect(dialogue.send("BDAT 6\r\nQUIT\r\n") == "530 5.7.0 Must issue a STARTTLS command first\r\n")
        #expect(dialogue.send("NOOP\r\nHELO c\r\n") == "250 2.0.0 Ok\r\n250 mx.test\r\n")
        dialogue.send("STARTTLS\r\n")
        dialogue.handshake()
        #expect(dialogue.send("EHLO c\r\n").contains("250-AUTH PLAIN"))
        #expect(dialogue.send("MAIL FROM:<a@b.test>\r\n") == "250 2.1.0 Ok\r\n")
    }

    @Test("implicit TLS, from the settings or the connection: the origin says so and STARTTLS is not offered",
          arguments: [(SMTPSettings(tls: .implicit), "502 5.5.1 Error: command not implemented\r\n"),
                      (SMTPSettings(tls: .offered), "554 5.5.1 Error: TLS already active\r\n")])
    func implicitTLS(settings: SMTPSettings, startTLSReply: String) throws {
        var dialogue = SMTPTestDialogue(settings, security: .implicitTLS)
        #expect(!dialogue.send("EHLO c\r\n").contains("STARTTLS"))
        #expect(dialogue.send("STARTTLS\r\n") == startTLSReply)
        dialogue.send("MAIL FROM:<a@b.test>\r\nRCPT TO:<c@d.test>\r\nDATA\r\nx\r\n.\r\n")
        guard case .smtp(_, _, .implicitTLS, _) = try #require(dialogue.delivered.first).envelope.origin else { Issue.record("origin"); return }
    }

    @Test("AUTH PLAIN: initial response or challenge, open or with accounts, the credentials masked in the transcript")
    func plain() throws {
        var open = SMTPTestDialogue()
        open.send("EHLO c\r\n")
        #expect(open.send("AUTH PLAIN \(Self.base64("\0lee@example.org\0anything"))\r\n") == "235 2.7.0 Authentication successful\r\n")
        #expect(open.send("AUTH PLAIN\r\n") == "503 5.5.1 Error: already authenticated\r\n")
        #expect(open.records.last == "AUTH PLAIN")
        #expect(open.records.dropLast().last == "AUTH PLAIN MASKED")
        open.send("MAIL FROM:<a@b.test>\r\nRCPT TO:<c@d.test>\r\nDATA\r\nx\r\n.\r\n")
        guard case .smtp(_, _, _, "lee@example.org") = try #require(open.delivered.first).envelope.origin else { Issue.record("user"); return }

        var accounts = SMTPTestDialogue(store: MailStore(users: Self.accounts))
        accounts.send("EHLO c\r\n")
        #expect(accounts.send("AUTH PLAIN\r\n") == "334 \r\n")
        #expect(!accounts.session.expectsCommand)
        #expect(accounts.send(Self.base64("\0dana@example.net\0wrong") + "\r\n") == "535 5.7.8 Error: authentication failed\r\n")
        #expect(accounts.records.suffix(2) == ["AUTH PLAIN", "MASKED"])
        #expect(accounts.send("AUTH PLAIN \(Self.base64("\0dana@example.net\0s3cret"))\r\n") == "235 2.7.0 Authentication successful\r\n")
        #expect(accounts.session.authenticatedUser == MailboxAddress("dana@example.net"))
    }

    @Test("AUTH LOGIN, CRAM-MD5 and XOAUTH2 with accounts")
    func otherMechanisms() throws {
        var login = SMTPTestDialogue(store: MailStore(users: Self.accounts))
        login.send("EHLO c\r\n")
        #expect(login.send("AUTH LOGIN\r\n") == "334 VXNlcm5hbWU6\r\n")
        #expect(login.send(Self.base64("dana@example.net") + "\r\n") == "334 UGFzc3dvcmQ6\r\n")
        #expect(login.send(Self.base64("s3cret") + "\r\n") == "235 2.7.0 Authentication successful\r\n")

        var cram = SMTPTestDialogue(store: MailStore(users: Self.accounts))
        cram.send("EHLO c\r\n")
        let challengeLine = cram.send("AUTH CRAM-MD5\r\n")
        #expect(challengeLine.hasPrefix("334 "))
        let challenge = try #require(Data(base64Encoded: String(challengeLine.dropFirst(4).dropLast(1))))
        #expect(String(decoding: challenge, as: UTF8.self).hasPrefix("<1."))
        let digest = MailDigest.hex(MailDigest.hmacMD5(key: Array("s3cret".utf8), message: Array(challenge)))
        #expect(cram.send(Self.base64("dana@example.net \(digest)") + "\r\n") == "235 2.7.0 Authentication successful\r\n")

        var oauth = SMTPTestDialogue(store: MailStore(users: Self.accounts))
        oauth.send("EHLO c\r\n")
        let token = Self.base64("user=dana@example.net\u{1}auth=Bearer expired\u{1}\u{1}")
        let error = oauth.send("AUTH XOAUTH2 \(token)\r\n")
        #expect(error == "334 \(Data(MailAuthExchange.xoauth2ErrorChallenge).base64EncodedString())\r\n")
        #expect(oauth.send("\r\n") == "535 5.7.8 Error: authentication failed\r\n")
        #expect(oauth.send("AUTH XOAUTH2 \(Self.base64("user=dana@example.net\u{1}auth=Bearer s3cret\u{1}\u{1}"))\r\n") == "235 2.7.0 Authentication successful\r\n")
    }

    @Test("AUTH refusals: cancel, bad base64, unknown or unoffered mechanism, before EHLO, in a transaction, too long an answer")
    func authRefusals() {
        var dialogue = SMTPTestDialogue(SMTPSettings(authenticationMechanisms: [.plain, .login]))
        #expect(dialogue.send("AUTH PLAIN\r\n") == "503 5.5.1 Error: send EHLO first\r\n")
        #expect(dialogue.send("EHLO c\r\n").contains("250-AUTH PLAIN LOGIN\r\n"))
        #expect(dialogue.send("AUTH LOGIN\r\n*\r\n") == "334 VXNlcm5hbWU6\r\n501 5.7.0 Error: authentication aborted\r\n")
        #expect(dialogue.records.suffix(2) == ["AUTH LOGIN", "*"])
        #expect(dialogue.send("AUTH PLAIN !!!notbase64\r\n") == "501 5.5.2 Error: the response is not base64\r\n")
        #expect(dialogue.send("AUTH CRAM-MD5\r\n") == "504 5.5.4 Unrecognized authentication type\r\n")
        #expect(dialogue.send("AUTH GSSAPI\r\n") == "504 5.5.4 Unrecognized authentication type\r\n")
        #expect(dialogue.send("AUTH\r\n") == "501 5.5.4 Syntax: AUTH mechanism [initial-response]\r\n")
        #expect(dialogue.send("AUTH PLAIN\r\n" + String(repeating: "A", count: 13_000) + "\r\nNOOP\r\n")
                == "334 \r\n500 5.5.6 Authentication exchange line is too long\r\n250 2.0.0 Ok\r\n")
        dialogue.send("MAIL FROM:<a@b.test>\r\n")
        #expect(dialogue.send("AUTH PLAIN\r\n") == "503 5.5.1 Error: MAIL transaction in progress\r\n")
        var none = SMTPTestDialogue(SMTPSettings(authenticationMechanisms: []))
        #expect(!none.send("EHLO c\r\n").contains("AUTH"))
        #expect(none.send("AUTH PLAIN\r\n") == "503 5.5.1 Error: authentication not enabled\r\n")
    }

    @Test("an AUTH line with a long XOAUTH2 token is taken up to 12,288 bytes, other commands only 512")
    func longAuthLine() {
        var dialogue = SMTPTestDialogue()
        dialogue.send("EHLO c\r\n")
        let token = Self.base64("user=a@b.test\u{1}auth=Bearer " + String(repeating: "t", count: 2000) + "\u{1}\u{1}")
        #expect(dialogue.send("AUTH XOAUTH2 \(token)\r\n", piece: 100) == "235 2.7.0 Authentication successful\r\n")
        #expect(dialogue.records.last == "AUTH XOAUTH2 MASKED")
    }

    @Test("AUTH required: MAIL before AUTH gets 530 5.7.0, after it 250")
    func authRequired() {
        var dialogue = SMTPTestDialogue(SMTPSettings(requiresAuthentication: true))
        dialogue.send("EHLO c\r\n")
        #expect(dialogue.send("MAIL FROM:<a@b.test>\r\n") == "530 5.7.0 Authentication required\r\n")
        dialogue.send("AUTH PLAIN \(Self.base64("\0u\0p"))\r\n")
        #expect(dialogue.send("MAIL FROM:<a@b.test>\r\n") == "250 2.1.0 Ok\r\n")
    }
}
