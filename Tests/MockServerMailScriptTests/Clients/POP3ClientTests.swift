import Foundation
import MockServerMail
import MockServerMailScript
import Testing
import TestSupport

/// Real POP3 clients (Python's poplib, curl) against our server, and the same clients against
/// Dovecot's POP3 on the same seed: what they see must agree.
@Suite("POP3 clients, against ours and against Dovecot", .offPool)
struct POP3ClientTests {
    static let first = "From: bob@example.com\r\nTo: ann@example.com\r\nSubject: first\r\n\r\nHello Ann,\r\n.a line that starts with a dot\r\nbye\r\n"
    static let second = "From: carol@example.com\r\nTo: ann@example.com\r\nSubject: second\r\n\r\nOne line.\r\n"

    /// poplib's view of a maildrop: STAT, LIST, TOP, RETR (dot-stuffing undone), DELE, a wrong
    /// command's error, QUIT; then a second session sees the deletion, and its UIDLs kept.
    static let poplibSession = """
        import poplib, sys
        port = int(sys.argv[1])
        p = poplib.POP3("127.0.0.1", port, timeout=10)
        p.user("ann@example.com"); p.pass_("anything")
        print("stat", p.stat())
        print("list", p.list()[1])
        uidls = [line.split()[1] for line in p.uidl()[1]]
        print("uidls", len(uidls), len(set(uidls)))
        print("top", p.top(1, 0)[1])
        print("retr", p.retr(1)[1])
        try:
            p.retr(3)
        except poplib.error_proto as error:
            print("retr 3", error.args[0].split()[0].decode())
        print("dele", p.dele(1).split()[0].decode())
        try:
            p.retr(1)
        except poplib.error_proto as error:
            print("retr deleted", error.args[0].split()[0].decode())
        print("quit", p.quit().split()[0].decode())
        q = poplib.POP3("127.0.0.1", port, timeout=10)
        q.user("ann@example.com"); q.pass_("anything")
        print("after", q.stat())
        print("uidl kept", q.uidl(1).split()[2] == uidls[1])
        q.quit()
        """

    static let expected = """
        stat (2, \(first.utf8.count + second.utf8.count))
        list [b'1 \(first.utf8.count)', b'2 \(second.utf8.count)']
        uidls 2 2
        top [b'From: bob@example.com', b'To: ann@example.com', b'Subject: first', b'']
        retr [b'From: bob@example.com', b'To: ann@example.com', b'Subject: first', b'', b'Hello Ann,', b'.a line that starts with a dot', b'bye']
        retr 3 -ERR
        dele +OK
        retr deleted -ERR
        quit +OK
        after (1, \(second.utf8.count))
        uidl kept True

        """

    @Test("poplib's whole session: the same lines from ours and from Dovecot on the same Maildir seed")
    func poplibAgainstDovecot() throws {
        let seed = try MailTestServer.seed(["ann@example.com": [Self.first, Self.second]])
        let ours = try MailTestServer { $0.seed = try MailSeed(directory: seed) }
        let result = try Tools.run("python3", ["-c", Self.poplibSession, String(ours.pop3Port)])
        #expect(result.stdout == Self.expected, "ours: \(result.stdout)\(result.stderr)")
        let dovecot = try Dovecot(seed: seed)
        defer { dovecot.stop() }
        let control = try Tools.run("python3", ["-c", Self.poplibSession, String(dovecot.port)])
        #expect(control.stdout == Self.expected, "Dovecot: \(control.stdout)\(control.stderr)")
    }

    @Test("curl lists and retrieves over pop3://, and a message SMTP took is there at once")
    func curl() throws {
        let server = try MailTestServer()
        _ = server.store.deliver(Data(Self.first.utf8), envelope: MailEnvelope(sender: "bob@example.com", recipients: ["ann@example.com"], origin: .seed(path: "test")))
        let list = try Tools.curl(["-s", "--user", "ann@example.com:secret", "pop3://127.0.0.1:\(server.pop3Port)/"])
        #expect(list.stdout == "1 \(Self.first.utf8.count)\r\n", "\(list)")
        let message = try Tools.curl(["-s", "--user", "ann@example.com:secret", "pop3://127.0.0.1:\(server.pop3Port)/1"])
        #expect(message.stdout == Self.first, "\(message)")
        let missing = try Tools.curl(["-s", "--user", "ann@example.com:secret", "pop3://127.0.0.1:\(server.pop3Port)/2"])
        #expect(missing.status != 0)
    }

    @Test("STLS and pop3s: curl with the test CA, and --tls-required refuses USER before STLS")
    func tls() throws {
        let starttls = try MailTestServer(tls: .explicit) { $0.tlsRequired = true }
        _ = starttls.store.deliver(Data(Self.second.utf8), envelope: MailEnvelope(sender: "carol@example.com", recipients: ["ann@example.com"], origin: .seed(path: "test")))
        let ca = try #require(starttls.caFile)
        let secured = try Tools.curl(["-s", "--ssl-reqd", "--cacert", ca, "--user", "ann@example.com:x", "pop3://localhost:\(starttls.pop3Port)/1"])
        #expect(secured.stdout == Self.second, "\(secured)")
        let plain = try Tools.python("""
            import poplib
            p = poplib.POP3("127.0.0.1", \(starttls.pop3Port), timeout=10)
            try:
                p.user("ann@example.com")
            except poplib.error_proto as error:
                print(error.args[0].decode())
            """)
        #expect(plain.stdout.hasPrefix("-ERR "), "\(plain)")
        let implicit = try MailTestServer(tls: .implicit)
        _ = implicit.store.deliver(Data(Self.second.utf8), envelope: MailEnvelope(sender: "carol@example.com", recipients: ["ann@example.com"], origin: .seed(path: "test")))
        let pop3s = try Tools.curl(["-s", "--cacert", try #require(implicit.caFile), "--user", "ann@example.com:x", "pop3s://localhost:\(implicit.pop3Port)/1"])
        #expect(pop3s.stdout == Self.second, "\(pop3s)")
    }
}
