import Foundation
import MockServerMail
import MockServerMailScript
import MockServerTLS
import Testing
import TestSupport

/// getmail6 retrieving over POP3 (`SimplePOP3Retriever`, and `SimplePOP3SSLRetriever` with the test
/// CA as `ca_certs`; getmail6 has no STLS) into an mboxrd file, from ours and from Dovecot on the
/// same seed; then its failure paths: a wrong password, a refused login, TLS required but not used.
@Suite("getmail6 retrieves, from ours and from Dovecot", .offPool, .enabled(if: Tools.path(of: "getmail") != nil))
struct GetmailClientTests {
    static let seedMessages = [POP3ClientTests.first, POP3ClientTests.second]

    /// What one getmail run gave: its result, and the messages of its mboxrd destination.
    struct Retrieval {
        let result: Tools.Result
        let messages: [String]
    }

    /// Runs getmail once (`read_all`, no deletion) with a getmailrc written for `port`.
    ///
    /// - Parameters:
    ///   - implicitTLS: `SimplePOP3SSLRetriever` with `ca`, else `SimplePOP3Retriever` (the IMAP
    ///     ones for `imap`).
    ///   - imap: over IMAP (`SimpleIMAPRetriever`, INBOX), without the header naming the mailbox
    ///     that getmail adds to what it took over IMAP.
    ///   - host: the plain retriever's host (TLS connects to `localhost`, the certificate's name).
    static func retrieve(port: UInt16, implicitTLS: Bool = false, ca: String? = nil, password: String = "secret",
                         imap: Bool = false, host: String = "127.0.0.1") throws -> Retrieval {
        let folder = try Tools.temporaryDirectory()
        let mbox = folder.appendingPathComponent("mbox")
        try Data().write(to: mbox)
        let kind = imap ? "IMAP" : "POP3"
        var lines = ["[retriever]", "type = \(implicitTLS ? "Simple\(kind)SSLRetriever" : "Simple\(kind)Retriever")",
                     "server = \(implicitTLS ? "localhost" : host)", "port = \(port)",
                     "username = ann@example.com", "password = \(password)"]
        if imap { lines.append("record_mailbox = false") }
        if let ca { lines.append("ca_certs = \(ca)") }
        lines += ["", "[destination]", "type = Mboxrd", "path = \(mbox.path)"]
        lines += ["", "[options]", "read_all = true", "delete = false", "received = false", "delivered_to = false"]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: folder.appendingPathComponent("getmailrc"))
        // getmail waits for each delivery child with a SIGCHLD handler installed after the fork, which
        // misses a child that exits first and then waits 60 s: Tests/Python/getmail_waitpid.py runs
        // getmail with a plain waitpid instead. It will not deliver as root: as root, it runs as nobody,
        // who owns its folder.
        let script = Tools.repositoryRoot.appendingPathComponent("Tests/Python/getmail_waitpid.py").path
        let arguments = ["/usr/bin/python3", script, "--getmaildir", folder.path, "--rcfile", "getmailrc"]
        let asNobody = getuid() == 0
        if asNobody { _ = try Tools.run("/bin/chown", ["-R", "nobody", folder.path]) }
        let result = asNobody ? try Tools.run("/usr/sbin/runuser", ["-u", "nobody", "--"] + arguments)
                              : try Tools.run(arguments[0], Array(arguments.dropFirst()))
        return Retrieval(result: result, messages: try FetchedMail.mboxrd(mbox))
    }

    @Test("plain: getmail retrieves the same messages from ours and from Dovecot on the same Maildir seed")
    func againstDovecot() throws {
        let seed = try MailTestServer.seed(["ann@example.com": Self.seedMessages])
        let ours = try MailTestServer { $0.seed = try MailSeed(directory: seed) }
        let retrieved = try Self.retrieve(port: ours.pop3Port)
        #expect(retrieved.result.status == 0, "ours: \(retrieved.result.stdout)\(retrieved.result.stderr)")
        #expect(retrieved.messages == FetchedMail.expected(Self.seedMessages))
        #expect(ours.store.messages(of: "ann@example.com").count == 2)
        guard Dovecot.isAvailable else { return }
        let dovecot = try Dovecot(seed: seed)
        defer { dovecot.stop() }
        let control = try Self.retrieve(port: dovecot.port)
        #expect(control.result.status == 0, "Dovecot: \(control.result.stdout)\(control.result.stderr)")
        #expect(control.messages == retrieved.messages)
    }

    @Test("pop3s: getmail's SSL retriever verifies the test CA and retrieves")
    func implicitTLS() throws {
        let seed = try MailTestServer.seed(["ann@example.com": Self.seedMessages])
        let server = try MailTestServer(tls: .implicit) {
            $0.seed = try MailSeed(directory: seed)
            $0.users = MailUsers(accounts: [MailboxAddress("ann@example.com"): "secret"])
        }
        let retrieved = try Self.retrieve(port: server.pop3Port, implicitTLS: true, ca: server.caFile)
        #expect(retrieved.result.status == 0, "\(retrieved.result.stdout)\(retrieved.result.stderr)")
        #expect(retrieved.messages == FetchedMail.expected(Self.seedMessages))
    }

    @Test("a wrong password, and a login refused by a fault: getmail fails and retrieves nothing")
    func refusedLogins() throws {
        let seed = try MailTestServer.seed(["ann@example.com": Self.seedMessages])
        let server = try MailTestServer {
            $0.seed = try MailSeed(directory: seed)
            $0.users = MailUsers(accounts: [MailboxAddress("ann@example.com"): "secret"])
        }
        let wrong = try Self.retrieve(port: server.pop3Port, password: "wrong")
        #expect(wrong.result.status != 0)
        #expect(wrong.result.stderr.contains("-ERR [AUTH] Authentication failed."), "\(wrong.result.stdout)\(wrong.result.stderr)")
        #expect(wrong.messages.isEmpty)
        let faults = MailFaultPlan([MailFaultRule(at: .pop3Pass, .reply(code: 0, text: "[IN-USE] Mailbox locked"), user: "ann@example.com")])
        let locked = try MailTestServer(faults: faults) { $0.seed = try MailSeed(directory: seed) }
        let refused = try Self.retrieve(port: locked.pop3Port)
        #expect(refused.result.status != 0)
        #expect(refused.result.stderr.contains("Mailbox locked"), "\(refused.result.stdout)\(refused.result.stderr)")
        #expect(refused.messages.isEmpty)
    }

    @Test("TLS required, and getmail's plain retriever (it has no STLS): the login is refused")
    func tlsRequiredButNotUsed() throws {
        let seed = try MailTestServer.seed(["ann@example.com": Self.seedMessages])
        let server = try MailTestServer(tls: .explicit) {
            $0.seed = try MailSeed(directory: seed)
            $0.tlsRequired = true
        }
        let retrieved = try Self.retrieve(port: server.pop3Port)
        #expect(retrieved.result.status != 0, "\(retrieved.result.stdout)\(retrieved.result.stderr)")
        #expect(retrieved.result.stderr.contains("Cleartext authentication disallowed"), "\(retrieved.result.stdout)\(retrieved.result.stderr)")
        #expect(retrieved.messages.isEmpty)
    }
}
