import Foundation
import MockServerMail
import MockServerMailScript
import MockServerTLS
import Testing
import TestSupport

/// msmtp, the sendmail stand-in of many a Linux box, sending through our SMTP over plain,
/// STARTTLS and implicit TLS with the test CA as its trust file, and through aiosmtpd; then its
/// failure paths: a wrong password, a refused recipient, TLS required but not used.
@Suite("msmtp sends, to ours and to aiosmtpd", .offPool, .enabled(if: Tools.path(of: "msmtp") != nil))
struct MSMTPClientTests {
    /// What msmtp reads on its standard input: LF line ends (it sends CRLF), and a line that
    /// starts with a dot (it stuffs it; the server must unstuff it).
    static let message = "From: ann@example.com\nTo: bob@example.com\nSubject: via msmtp\n\nHello Bob,\n.a dotted line\nbye\n"

    /// The end of the stored message: msmtp adds `Date:` and `Message-ID:` in front.
    static let storedEnd = "Subject: via msmtp\r\n\r\nHello Bob,\r\n.a dotted line\r\nbye\r\n"

    /// Runs msmtp with a configuration file written for `port`, sending ``message`` to `recipients`.
    ///
    /// - Parameters:
    ///   - security: nil (plain), `.explicit` (STARTTLS) or `.implicit` (TLS from the first byte).
    ///   - ca: the trust file, for TLS.
    ///   - password: the AUTH PLAIN password, or nil for no AUTH.
    static func send(port: UInt16, security: TLSSettings.Mode?, ca: String?, password: String? = "secret",
                     to recipients: [String] = ["bob@example.com"]) throws -> Tools.Result {
        let folder = try Tools.temporaryDirectory()
        var lines = ["account default", "host \(security == nil ? "127.0.0.1" : "localhost")", "port \(port)", "from ann@example.com",
                     "domain client.example", "timeout 10"]
        switch security {
        case nil: lines.append("tls off")
        case .explicit?: lines += ["tls on", "tls_starttls on"]
        case .implicit?: lines += ["tls on", "tls_starttls off"]
        }
        if let ca { lines.append("tls_trust_file \(ca)") }
        // msmtp 1.8 picks no mechanism by itself without TLS once PLAIN and LOGIN are all a server
        // has (aiosmtpd), and no longer picks CRAM-MD5: name PLAIN, which every server here has.
        if let password { lines += ["auth plain", "user ann@example.com", "password \(password)"] } else { lines.append("auth off") }
        let file = folder.appendingPathComponent("msmtprc")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
        // msmtp refuses a configuration file with a password that others may read.
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        return try Tools.run("msmtp", ["--file=\(file.path)"] + recipients, input: message)
    }

    @Test("msmtp sends with AUTH PLAIN over plain, STARTTLS and implicit TLS; the message is stored unstuffed",
          arguments: [TLSSettings.Mode?.none, .explicit, .implicit])
    func sends(security: TLSSettings.Mode?) throws {
        let server = try MailTestServer(tls: security) {
            $0.users = MailUsers(accounts: [MailboxAddress("ann@example.com"): "secret"])
            $0.tlsRequired = security == .explicit
        }
        let result = try Self.send(port: server.smtpPort, security: security, ca: server.caFile)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let stored = server.store.transactions
        #expect(stored.map(\.envelope.recipients) == [["bob@example.com"]])
        #expect(stored.first?.envelope.sender == "ann@example.com")
        let raw = stored.first.map { String(decoding: $0.raw, as: UTF8.self) } ?? ""
        #expect(raw.hasSuffix(Self.storedEnd), "\(raw)")
        if case .smtp(let helo, _, let tls, let user)? = stored.first?.envelope.origin {
            #expect(helo == "client.example")
            #expect(tls == (security == nil ? .plain : security == .explicit ? .startTLS : .implicitTLS))
            #expect(user == "ann@example.com")
        } else {
            Issue.record("no SMTP origin: \(String(describing: stored.first?.envelope.origin))")
        }
    }

    @Test("msmtp's plain session with AUTH PLAIN also succeeds against aiosmtpd", .enabled(if: PythonServer.hasAiosmtpd))
    func againstAiosmtpd() throws {
        let control = try PythonServer(PythonServer.aiosmtpd)
        let result = try Self.send(port: control.port, security: nil, ca: nil)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(control.nextLine().hasPrefix("delivered ann@example.com bob@example.com "))
    }

    @Test("a wrong password: msmtp exits 77 (EX_NOPERM) with our 535, and nothing is stored")
    func wrongPassword() throws {
        let server = try MailTestServer { $0.users = MailUsers(accounts: [MailboxAddress("ann@example.com"): "secret"]) }
        let result = try Self.send(port: server.smtpPort, security: nil, ca: nil, password: "wrong")
        #expect(result.status == 77, "\(result.status) \(result.stderr)")
        #expect(result.stderr.contains("535"), "\(result.stderr)")
        #expect(server.store.transactions.isEmpty)
    }

    @Test("a recipient refused by a fault (550): msmtp sends nothing and names the recipient")
    func refusedRecipient() throws {
        let faults = MailFaultPlan([MailFaultRule(at: .smtpRecipient, .reply(code: 550, text: "5.1.1 No such user"), recipient: "nobody@example.com")])
        let server = try MailTestServer(faults: faults)
        let result = try Self.send(port: server.smtpPort, security: nil, ca: nil, password: nil, to: ["bob@example.com", "nobody@example.com"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("nobody@example.com") && result.stderr.contains("550 5.1.1 No such user"), "\(result.stderr)")
        #expect(server.store.transactions.isEmpty)
        let other = try Self.send(port: server.smtpPort, security: nil, ca: nil, password: nil)
        #expect(other.status == 0, "\(other.stderr)")
        #expect(server.store.transactions.count == 1)
    }

    @Test("TLS required but msmtp told not to use it: MAIL gets 530 and msmtp fails")
    func tlsRequiredButNotUsed() throws {
        let server = try MailTestServer(tls: .explicit) { $0.tlsRequired = true }
        let result = try Self.send(port: server.smtpPort, security: nil, ca: nil, password: nil)
        #expect(result.status != 0)
        #expect(result.stderr.contains("530"), "\(result.stderr)")
        #expect(server.store.transactions.isEmpty)
    }
}
