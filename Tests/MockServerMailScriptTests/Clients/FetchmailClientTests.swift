import Foundation
import MockServerMail
import MockServerMailScript
import MockServerTLS
import Testing
import TestSupport

/// fetchmail fetching over POP3 from ours (plain, STLS, pop3s, with the test CA as its
/// `sslcertfile`) and from Dovecot on the same seed, each message handed to an MDA that writes it
/// to a file; then its failure paths: a wrong password, a download dropped half-way, TLS required
/// but not used.
@Suite("fetchmail fetches, from ours and from Dovecot", .offPool, .enabled(if: Tools.path(of: "fetchmail") != nil))
struct FetchmailClientTests {
    static let seedMessages = [POP3ClientTests.first, POP3ClientTests.second]

    /// What one fetchmail run gave: its result, and the messages its MDA wrote.
    struct Fetch {
        let result: Tools.Result
        let messages: [String]
    }

    /// Runs fetchmail once (`keep`, `fetchall`) with a run control file written for `port`.
    ///
    /// - Parameters:
    ///   - security: nil (plain, opportunistic STLS turned off), `.explicit` (STLS or STARTTLS,
    ///     made mandatory by `sslproto`), `.implicit` (`ssl`).
    ///   - imap: over IMAP (its INBOX) instead of POP3.
    ///   - host: the plain connection's host (TLS connects to `localhost`, the certificate's name).
    static func fetch(port: UInt16, security: TLSSettings.Mode?, ca: String?, password: String = "secret",
                      imap: Bool = false, host: String = "127.0.0.1") throws -> Fetch {
        let folder = try Tools.temporaryDirectory()
        let delivered = folder.appendingPathComponent("delivered", isDirectory: true)
        try FileManager.default.createDirectory(at: delivered, withIntermediateDirectories: true)
        var poll = "poll \(security == nil ? host : "localhost") protocol \(imap ? "imap" : "pop3") port \(port) user \"ann@example.com\" password \"\(password)\""
        switch security {
        case nil: poll += " sslproto \"\""
        case .explicit?: poll += " sslproto \"tls1.2+\""
        case .implicit?: poll += " ssl sslproto \"tls1.2+\""
        }
        if let ca { poll += " sslcertck sslcertfile \"\(ca)\"" }
        // One file per message: the MDA is a shell command line, `$$` its shell's process number.
        poll += " keep fetchall no rewrite mda \"cat > \(delivered.path)/message.$$\"\n"
        let file = folder.appendingPathComponent("fetchmailrc")
        try Data(poll.utf8).write(to: file)
        // fetchmail refuses a run control file that others may read.
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        // Its lock and UID files go to FETCHMAILHOME: parallel runs must not share them.
        let result = try Tools.run("fetchmail", ["--nosyslog", "--nodetach", "--invisible", "--pidfile", folder.appendingPathComponent("pid").path, "-f", file.path, "-v"],
                                   environment: ["HOME": folder.path, "FETCHMAILHOME": folder.path])
        return Fetch(result: result, messages: try FetchedMail.files(in: [delivered]))
    }

    @Test("plain: fetchmail fetches the same messages from ours and from Dovecot on the same Maildir seed")
    func againstDovecot() throws {
        let seed = try MailTestServer.seed(["ann@example.com": Self.seedMessages])
        let ours = try MailTestServer { $0.seed = try MailSeed(directory: seed) }
        let fetched = try Self.fetch(port: ours.pop3Port, security: nil, ca: nil)
        #expect(fetched.result.status == 0, "ours: \(fetched.result.stderr)")
        #expect(fetched.messages == FetchedMail.expected(Self.seedMessages))
        // `keep`: nothing deleted.
        #expect(ours.store.messages(of: "ann@example.com").count == 2)
        guard Dovecot.isAvailable else { return }
        let dovecot = try Dovecot(seed: seed)
        defer { dovecot.stop() }
        let control = try Self.fetch(port: dovecot.port, security: nil, ca: nil)
        #expect(control.result.status == 0, "Dovecot: \(control.result.stderr)")
        #expect(control.messages == fetched.messages)
    }

    @Test("fetchmail verifies the test CA and fetches over STLS (TLS required) and over pop3s",
          arguments: [TLSSettings.Mode.explicit, .implicit])
    func tls(security: TLSSettings.Mode) throws {
        let seed = try MailTestServer.seed(["ann@example.com": Self.seedMessages])
        let server = try MailTestServer(tls: security) {
            $0.seed = try MailSeed(directory: seed)
            $0.tlsRequired = security == .explicit
            $0.users = MailUsers(accounts: [MailboxAddress("ann@example.com"): "secret"])
        }
        let fetched = try Self.fetch(port: server.pop3Port, security: security, ca: server.caFile)
        #expect(fetched.result.status == 0, "\(fetched.result.stderr)")
        #expect(fetched.messages == FetchedMail.expected(Self.seedMessages))
    }

    @Test("a wrong password: fetchmail exits 3 (authentication failed) and fetches nothing")
    func wrongPassword() throws {
        let seed = try MailTestServer.seed(["ann@example.com": Self.seedMessages])
        let server = try MailTestServer {
            $0.seed = try MailSeed(directory: seed)
            $0.users = MailUsers(accounts: [MailboxAddress("ann@example.com"): "secret"])
        }
        let fetched = try Self.fetch(port: server.pop3Port, security: nil, ca: nil, password: "wrong")
        #expect(fetched.result.status == 3, "\(fetched.result.status) \(fetched.result.stderr)")
        #expect(fetched.messages.isEmpty)
    }

    @Test("RETR dropped half-way by a fault: fetchmail fails, delivers no partial message, and nothing is deleted")
    func droppedMidway() throws {
        let seed = try MailTestServer.seed(["ann@example.com": Self.seedMessages])
        let faults = MailFaultPlan([MailFaultRule(at: .pop3Retrieve, .dropMidway)])
        let server = try MailTestServer(faults: faults) { $0.seed = try MailSeed(directory: seed) }
        let fetched = try Self.fetch(port: server.pop3Port, security: nil, ca: nil)
        // 2: PS_SOCKET, the connection lost.
        #expect(fetched.result.status == 2, "\(fetched.result.status) \(fetched.result.stderr)")
        #expect(!fetched.messages.contains(FetchedMail.expected([POP3ClientTests.first])[0]))
        #expect(server.store.messages(of: "ann@example.com").count == 2)
    }

    @Test("TLS required but fetchmail told not to use it: the login is refused and nothing fetched")
    func tlsRequiredButNotUsed() throws {
        let seed = try MailTestServer.seed(["ann@example.com": Self.seedMessages])
        let server = try MailTestServer(tls: .explicit) {
            $0.seed = try MailSeed(directory: seed)
            $0.tlsRequired = true
        }
        let fetched = try Self.fetch(port: server.pop3Port, security: nil, ca: nil)
        #expect(fetched.result.status == 3, "\(fetched.result.status) \(fetched.result.stderr)")
        #expect(fetched.result.stderr.contains("Cleartext authentication disallowed"), "\(fetched.result.stderr)")
        #expect(fetched.messages.isEmpty)
    }
}
