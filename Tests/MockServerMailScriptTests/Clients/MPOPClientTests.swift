import Foundation
import MockServerMail
import MockServerMailScript
import MockServerTLS
import Testing
import TestSupport

/// mpop, msmtp's POP3 sibling, retrieving into a Maildir from ours over plain, STLS and pop3s (the
/// test CA as its `tls_trust_file`) and from Dovecot on the same seed; then its failure paths: a
/// wrong password, a download dropped by a fault, TLS required but not used.
@Suite("mpop retrieves, from ours and from Dovecot", .offPool, .enabled(if: Tools.path(of: "mpop") != nil))
struct MPOPClientTests {
    static let seedMessages = [POP3ClientTests.first, POP3ClientTests.second]

    /// What one mpop run gave: its result, and the messages of its Maildir (new/ and cur/).
    struct Retrieval {
        let result: Tools.Result
        let messages: [String]
    }

    /// Runs mpop once (`keep`, every message, no `Received:` added) with a configuration written for `port`.
    ///
    /// - Parameter security: nil (plain), `.explicit` (STLS), `.implicit` (pop3s).
    static func retrieve(port: UInt16, security: TLSSettings.Mode?, ca: String?, password: String = "secret") throws -> Retrieval {
        let folder = try Tools.temporaryDirectory()
        let maildir = folder.appendingPathComponent("Maildir", isDirectory: true)
        for sub in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(at: maildir.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        var lines = ["account default", "host \(security == nil ? "127.0.0.1" : "localhost")", "port \(port)", "timeout 10",
                     "user ann@example.com", "password \(password)", "keep on", "only_new off", "received_header off",
                     "uidls_file \(folder.path)/uidls", "delivery maildir \(maildir.path)"]
        switch security {
        case nil: lines.append("tls off")
        case .explicit?: lines += ["tls on", "tls_starttls on"]
        case .implicit?: lines += ["tls on", "tls_starttls off"]
        }
        if let ca { lines.append("tls_trust_file \(ca)") }
        // mpop 1.4 refuses USER/PASS without TLS unless told (as msmtp does with PLAIN).
        if security == nil { lines.append("auth user") }
        let file = folder.appendingPathComponent("mpoprc")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        let result = try Tools.run("mpop", ["--file=\(file.path)"])
        let messages = try FetchedMail.files(in: [maildir.appendingPathComponent("new"), maildir.appendingPathComponent("cur")])
        return Retrieval(result: result, messages: messages)
    }

    @Test("plain: mpop retrieves the same messages from ours and from Dovecot on the same Maildir seed")
    func againstDovecot() throws {
        let seed = try MailTestServer.seed(["ann@example.com": Self.seedMessages])
        let ours = try MailTestServer { $0.seed = try MailSeed(directory: seed) }
        let retrieved = try Self.retrieve(port: ours.pop3Port, security: nil, ca: nil)
        #expect(retrieved.result.status == 0, "ours: \(retrieved.result.stdout)\(retrieved.result.stderr)")
        #expect(retrieved.messages == FetchedMail.expected(Self.seedMessages))
        #expect(ours.store.messages(of: "ann@example.com").count == 2)
        guard Dovecot.isAvailable else { return }
        let dovecot = try Dovecot(seed: seed)
        defer { dovecot.stop() }
        let control = try Self.retrieve(port: dovecot.port, security: nil, ca: nil)
        #expect(control.result.status == 0, "Dovecot: \(control.result.stdout)\(control.result.stderr)")
        #expect(control.messages == retrieved.messages)
    }

    @Test("mpop verifies the test CA and retrieves over STLS (TLS required) and over pop3s",
          arguments: [TLSSettings.Mode.explicit, .implicit])
    func tls(security: TLSSettings.Mode) throws {
        let seed = try MailTestServer.seed(["ann@example.com": Self.seedMessages])
        let server = try MailTestServer(tls: security) {
            $0.seed = try MailSeed(directory: seed)
            $0.tlsRequired = security == .explicit
            $0.users = MailUsers(accounts: [MailboxAddress("ann@example.com"): "secret"])
        }
        let retrieved = try Self.retrieve(port: server.pop3Port, security: security, ca: server.caFile)
        #expect(retrieved.result.status == 0, "\(retrieved.result.stdout)\(retrieved.result.stderr)")
        #expect(retrieved.messages == FetchedMail.expected(Self.seedMessages))
    }

    @Test("a wrong password: mpop exits 77 (EX_NOPERM) and retrieves nothing")
    func wrongPassword() throws {
        let seed = try MailTestServer.seed(["ann@example.com": Self.seedMessages])
        let server = try MailTestServer {
            $0.seed = try MailSeed(directory: seed)
            $0.users = MailUsers(accounts: [MailboxAddress("ann@example.com"): "secret"])
        }
        let retrieved = try Self.retrieve(port: server.pop3Port, security: nil, ca: nil, password: "wrong")
        #expect(retrieved.result.status == 77, "\(retrieved.result.status) \(retrieved.result.stderr)")
        #expect(retrieved.messages.isEmpty)
    }

    @Test("RETR refused by a fault: mpop fails with our text and delivers nothing")
    func refusedRetrieve() throws {
        let seed = try MailTestServer.seed(["ann@example.com": Self.seedMessages])
        let faults = MailFaultPlan([MailFaultRule(at: .pop3Retrieve, .reply(code: 0, text: "Message unavailable"))])
        let server = try MailTestServer(faults: faults) { $0.seed = try MailSeed(directory: seed) }
        let retrieved = try Self.retrieve(port: server.pop3Port, security: nil, ca: nil)
        #expect(retrieved.result.status != 0)
        #expect(retrieved.result.stderr.contains("Message unavailable"), "\(retrieved.result.stderr)")
        #expect(retrieved.messages.isEmpty)
    }

    @Test("TLS required but mpop told not to use it: the login is refused and nothing retrieved")
    func tlsRequiredButNotUsed() throws {
        let seed = try MailTestServer.seed(["ann@example.com": Self.seedMessages])
        let server = try MailTestServer(tls: .explicit) {
            $0.seed = try MailSeed(directory: seed)
            $0.tlsRequired = true
        }
        let retrieved = try Self.retrieve(port: server.pop3Port, security: nil, ca: nil)
        #expect(retrieved.result.status == 77, "\(retrieved.result.status) \(retrieved.result.stderr)")
        #expect(retrieved.result.stderr.contains("-ERR [AUTH] Cleartext authentication disallowed"), "\(retrieved.result.stderr)")
        #expect(retrieved.messages.isEmpty)
    }
}
