import Foundation
import MockServerMail
import MockServerMailScript
import MockServerTLS
import Testing
import TestSupport

/// Jakarta Mail, as a Java application uses it: sending over SMTP with AUTH (plain, STARTTLS
/// required, implicit TLS, the test CA as its only trust) and reading over POP3, from ours and
/// from aiosmtpd and Dovecot; then its failure paths: a wrong password, a refused recipient, TLS
/// required but not used. The program is compiled once per test run.
@Suite("Jakarta Mail sends and reads, with ours and with the controls", .offPool, .enabled(if: JakartaMail.isAvailable))
struct JakartaMailClientTests {
    /// The body the program sends, as stored (it sends a quoted-printable-free 7bit text/plain).
    static let storedBody = "Hello from Java,\r\n.a dotted line\r\nbye\r\n"

    /// The size Jakarta Mail gives a POP3 message: its body's, after the blank line (from LIST's
    /// size less the header it fetched with TOP).
    static func bodySize(_ raw: String) -> Int {
        raw.utf8.count - (raw.range(of: "\r\n\r\n").map { raw[..<$0.upperBound].utf8.count } ?? 0)
    }

    /// The program's arguments for `security` (nil: plain).
    static func security(_ mode: TLSSettings.Mode?) -> [String] {
        switch mode {
        case nil: ["plain", "127.0.0.1"]
        case .explicit?: ["starttls", "localhost"]
        case .implicit?: ["tls", "localhost"]
        }
    }

    @Test("Jakarta Mail sends with AUTH over plain, STARTTLS (required) and implicit TLS",
          arguments: [TLSSettings.Mode?.none, .explicit, .implicit])
    func sends(mode: TLSSettings.Mode?) throws {
        let server = try MailTestServer(tls: mode) {
            $0.users = MailUsers(accounts: [MailboxAddress("ann@example.com"): "secret"])
            $0.tlsRequired = mode == .explicit
        }
        let result = try JakartaMail.run(["send"] + Self.security(mode) + [String(server.smtpPort), "ann@example.com", "secret", server.caFile ?? "-",
                                                                         "ann@example.com", "bob@example.com", "carol@example.com"])
        #expect(result.stdout == "sent\n", "\(result.stdout)\(result.stderr)")
        let stored = server.store.transactions
        #expect(stored.map(\.envelope.recipients) == [["bob@example.com", "carol@example.com"]])
        let raw = stored.first.map { String(decoding: $0.raw, as: UTF8.self) } ?? ""
        #expect(raw.contains("Subject: via Jakarta Mail\r\n") && raw.hasSuffix("\r\n\r\n" + Self.storedBody), "\(raw)")
        if case .smtp(_, _, _, let user)? = stored.first?.envelope.origin {
            #expect(user == "ann@example.com")
        } else {
            Issue.record("no SMTP origin")
        }
    }

    @Test("Jakarta Mail's plain send with AUTH also succeeds against aiosmtpd", .enabled(if: PythonServer.hasAiosmtpd))
    func sendsToAiosmtpd() throws {
        let control = try PythonServer(PythonServer.aiosmtpd)
        let result = try JakartaMail.run(["send", "plain", "127.0.0.1", String(control.port), "ann@example.com", "secret", "-",
                                          "ann@example.com", "bob@example.com"])
        #expect(result.stdout == "sent\n", "\(result.stdout)\(result.stderr)")
        #expect(control.nextLine().hasPrefix("delivered ann@example.com bob@example.com "))
    }

    @Test("send failures: a wrong password (535), a recipient refused by a fault (550), TLS required but not used (530)")
    func sendFailures() throws {
        let faults = MailFaultPlan([MailFaultRule(at: .smtpRecipient, .reply(code: 550, text: "5.1.1 No such user"), recipient: "nobody@example.com")])
        let server = try MailTestServer(faults: faults) { $0.users = MailUsers(accounts: [MailboxAddress("ann@example.com"): "secret"]) }
        let port = String(server.smtpPort)
        let wrong = try JakartaMail.run(["send", "plain", "127.0.0.1", port, "ann@example.com", "wrong", "-", "ann@example.com", "bob@example.com"])
        #expect(wrong.status == 1)
        #expect(wrong.stdout.hasPrefix("error AuthenticationFailedException: 535"), "\(wrong.stdout)\(wrong.stderr)")
        let refused = try JakartaMail.run(["send", "plain", "127.0.0.1", port, "ann@example.com", "secret", "-",
                                           "ann@example.com", "bob@example.com", "nobody@example.com"])
        #expect(refused.status == 1)
        #expect(refused.stdout.hasPrefix("error SendFailedException: Invalid Addresses") && refused.stdout.contains("550 5.1.1 No such user"),
                "\(refused.stdout)\(refused.stderr)")
        #expect(server.store.transactions.isEmpty)
        let required = try MailTestServer(tls: .explicit) { $0.tlsRequired = true }
        let plain = try JakartaMail.run(["send", "plain", "127.0.0.1", String(required.smtpPort), "-", "-", "-", "ann@example.com", "bob@example.com"])
        #expect(plain.status == 1)
        #expect(plain.stdout.contains("530"), "\(plain.stdout)\(plain.stderr)")
        #expect(required.store.transactions.isEmpty)
    }

    @Test("Jakarta Mail reads the same messages over POP3 from ours and from Dovecot on the same seed")
    func readsAgainstDovecot() throws {
        let seed = try MailTestServer.seed(["ann@example.com": [POP3ClientTests.first, POP3ClientTests.second]])
        let ours = try MailTestServer { $0.seed = try MailSeed(directory: seed) }
        let read = ["read", "plain", "127.0.0.1"]
        let result = try JakartaMail.run(read + [String(ours.pop3Port), "ann@example.com", "secret", "-"])
        #expect(result.stdout == """
            count 2
            message first from bob@example.com size \(Self.bodySize(POP3ClientTests.first)) body Hello Ann,|.a line that starts with a dot|bye|
            message second from carol@example.com size \(Self.bodySize(POP3ClientTests.second)) body One line.|

            """, "\(result.stdout)\(result.stderr)")
        guard Dovecot.isAvailable else { return }
        let dovecot = try Dovecot(seed: seed)
        defer { dovecot.stop() }
        let control = try JakartaMail.run(read + [String(dovecot.port), "ann@example.com", "secret", "-"])
        #expect(control.stdout == result.stdout, "Dovecot: \(control.stdout)\(control.stderr)")
    }

    @Test("Jakarta Mail reads over STLS (required) and pop3s with the test CA; a wrong password and a plain login under TLS-required fail",
          arguments: [TLSSettings.Mode.explicit, .implicit])
    func readsOverTLS(mode: TLSSettings.Mode) throws {
        let seed = try MailTestServer.seed(["ann@example.com": [POP3ClientTests.second]])
        let server = try MailTestServer(tls: mode) {
            $0.seed = try MailSeed(directory: seed)
            $0.tlsRequired = mode == .explicit
            $0.users = MailUsers(accounts: [MailboxAddress("ann@example.com"): "secret"])
        }
        let ca = try #require(server.caFile)
        let arguments = ["read"] + Self.security(mode) + [String(server.pop3Port), "ann@example.com"]
        let good = try JakartaMail.run(arguments + ["secret", ca])
        #expect(good.stdout.hasPrefix("count 1\nmessage second from carol@example.com"), "\(good.stdout)\(good.stderr)")
        let wrong = try JakartaMail.run(arguments + ["wrong", ca])
        #expect(wrong.status == 1)
        #expect(wrong.stdout.hasPrefix("error AuthenticationFailedException"), "\(wrong.stdout)\(wrong.stderr)")
        if mode == .explicit {
            let plain = try JakartaMail.run(["read", "plain", "127.0.0.1", String(server.pop3Port), "ann@example.com", "secret", "-"])
            #expect(plain.status == 1)
            #expect(plain.stdout.hasPrefix("error AuthenticationFailedException"), "\(plain.stdout)\(plain.stderr)")
        }
    }
}
