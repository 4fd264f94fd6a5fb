import Foundation
import MockServerMail
import MockServerScript
@testable import MockServerMailScript
import Testing
import TestSupport

/// IMAP served on a real socket: the mail server's third listener, and IDLE woken by a delivery
/// made on another thread.
@Suite("IMAP serving", .offPool)
struct IMAPServingTests {
    /// A client logged in as alice with INBOX selected.
    private static func selected(_ mail: MailServer) throws -> TestClient {
        let client = try TestClient(port: mail.imap.port)
        #expect(try client.readLine().hasPrefix("* OK [CAPABILITY IMAP4rev1"))
        try client.send("a LOGIN alice@example.com pw\r\n")
        #expect(try client.readLine().hasPrefix("a OK [CAPABILITY"))
        try client.send("b SELECT INBOX\r\n")
        while !(try client.readLine()).hasPrefix("b OK") {}
        return client
    }

    private static func deliver(_ mail: MailServer, subject: String) {
        mail.store.deliver(Data("Subject: \(subject)\r\n\r\nx\r\n".utf8),
                           envelope: MailEnvelope(sender: "bob@example.com", recipients: ["alice@example.com"], origin: .seed(path: "test")))
    }

    @Test("a session in IDLE hears of a delivery at once, and DONE ends the IDLE")
    func idleWakes() throws {
        let mail = try MailServer(MailServerConfiguration())
        try mail.start()
        defer { mail.stop() }
        let client = try Self.selected(mail)
        try client.send("c IDLE\r\n")
        #expect(try client.readLine() == "+ idling")
        Self.deliver(mail, subject: "one")
        #expect(try client.readLine() == "* 1 EXISTS")
        #expect(try client.readLine() == "* 1 RECENT")
        try client.send("DONE\r\n")
        #expect(try client.readLine() == "c OK Idle completed.")
        try client.send("d LOGOUT\r\n")
        #expect(try client.readLine() == "* BYE Logging out")
    }

    @Test("200 sessions in IDLE on one INBOX are all told of one delivery")
    func manyIdlers() throws {
        let mail = try MailServer(MailServerConfiguration())
        try mail.start()
        defer { mail.stop() }
        var clients: [TestClient] = []
        for _ in 0..<200 {
            let client = try Self.selected(mail)
            try client.send("c IDLE\r\n")
            #expect(try client.readLine() == "+ idling")
            clients.append(client)
        }
        #expect(mail.store.observerCount == 200)
        Self.deliver(mail, subject: "for all")
        for client in clients { #expect(try client.readLine() == "* 1 EXISTS") }
    }

    @Test("the script stands in for the commands it answers; the session answers the rest")
    func scriptFirst() throws {
        let json = #"{"scheme": "imap", "responses": {"caps": {"pattern": "^(\\S+) CAPABILITY$", "commands": ["* CAPABILITY IMAP4rev1 X-SCRIPTED\r\n$1 OK scripted\r\n"]}}}"#
        let script = try ResponseScript(json: json, file: "imap.json", vocabulary: ScriptVocabulary([LineScriptProtocol(name: "IMAP", tlsForms: ["imap": "imaps"])]))
        var configuration = MailServerConfiguration()
        configuration.scripts = [script]
        let mail = try MailServer(configuration)
        try mail.start()
        defer { mail.stop() }
        let client = try TestClient(port: mail.imap.port)
        _ = try client.readLine()
        try client.send("a CAPABILITY\r\nb NOOP\r\n")
        #expect(try client.readLine() == "* CAPABILITY IMAP4rev1 X-SCRIPTED")
        #expect(try client.readLine() == "a OK scripted")
        #expect(try client.readLine() == "b OK NOOP completed.")
    }

    @Test("a FETCH of 6 MiB, made a part at a time, reaches a client that reads it as it comes: the connection asks for the next part once the last is written")
    func largeFetch() throws {
        let mail = try MailServer(MailServerConfiguration())
        try mail.start()
        defer { mail.stop() }
        let body = String(repeating: "0123456789abcdef\r\n", count: 16_384)   // 288 KiB a message
        for index in 1...20 { Self.deliver(mail, subject: "\(index)\r\n\r\n\(body)") }
        let result = try Tools.python("""
            import imaplib
            m = imaplib.IMAP4("127.0.0.1", \(mail.imap.port), timeout=30)
            m.login("alice@example.com", "pw")
            m.select("INBOX", readonly=True)
            typ, data = m.fetch("1:*", "(BODY.PEEK[])")
            print(typ, sum(len(item[1]) for item in data if isinstance(item, tuple)))
            """)
        // 20 messages of "Subject: N\r\n\r\n" + body + "\r\n\r\nx\r\n": 20 × 294,932 bytes, and the 31 digits of 1…20.
        #expect(result.stdout == "OK 5898671\n", "\(result)")
    }

    @Test("a client that hangs up without LOGOUT leaves no registration with the store behind")
    func hangUpUnregisters() async throws {
        let mail = try MailServer(MailServerConfiguration())
        try mail.start()
        defer { mail.stop() }
        let client = try Self.selected(mail)
        #expect(mail.store.observerCount == 1)
        client.shutdownWrite()
        try await mail.imap.transcript.wait(for: "the connection's close") { entry in
            if case .closed = entry.event { true } else { false }
        }
        #expect(mail.store.observerCount == 0)
    }
}
