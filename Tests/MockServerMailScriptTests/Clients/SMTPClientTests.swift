import Foundation
import MockServerMail
import MockServerMailScript
import Testing
import TestSupport

/// Real SMTP clients (Python's smtplib, curl, swaks) against our server, and the same smtplib
/// session against aiosmtpd, the Python test sink: what the client sees must agree.
@Suite("SMTP clients, against ours and against aiosmtpd", .offPool)
struct SMTPClientTests {
    static let message = "From: ann@example.com\r\nTo: bob@example.com\r\nSubject: hello\r\n\r\nHello Bob,\r\n.a dotted line\r\nbye\r\n"

    /// smtplib's session: EHLO, a message to two recipients with a dotted line, RSET, NOOP, QUIT.
    static let smtplibSession = """
        import smtplib, sys
        message = "From: ann@example.com\\r\\nTo: bob@example.com\\r\\nSubject: hello\\r\\n\\r\\nHello Bob,\\r\\n.a dotted line\\r\\nbye\\r\\n"
        with smtplib.SMTP("127.0.0.1", int(sys.argv[1]), local_hostname="client.example", timeout=10) as smtp:
            code, _ = smtp.ehlo()
            print("ehlo", code, smtp.has_extn("size"), smtp.has_extn("8bitmime"), smtp.has_extn("smtputf8"))
            print("refused", smtp.sendmail("ann@example.com", ["bob@example.com", "carol@example.com"], message))
            print("rset", smtp.rset()[0], "noop", smtp.noop()[0])
        print("done")
        """

    static let expected = "ehlo 250 True True True\nrefused {}\nrset 250 noop 250\ndone\n"

    @Test("smtplib's session: the same lines from ours and from aiosmtpd; ours stores one transaction for both recipients", .enabled(if: PythonServer.hasAiosmtpd))
    func smtplibAgainstAiosmtpd() throws {
        let server = try MailTestServer()
        let result = try Tools.run("python3", ["-c", Self.smtplibSession, String(server.smtpPort)])
        #expect(result.stdout == Self.expected, "ours: \(result.stdout)\(result.stderr)")
        let stored = server.store.transactions
        #expect(stored.count == 1)
        #expect(stored.first?.envelope.sender == "ann@example.com")
        #expect(stored.first?.envelope.recipients == ["bob@example.com", "carol@example.com"])
        #expect(stored.first.map { String(decoding: $0.raw, as: UTF8.self) } == Self.message)
        #expect(server.store.messages(of: "carol@example.com").count == 1)
        let control = try PythonServer(PythonServer.aiosmtpd)
        let theirs = try Tools.run("python3", ["-c", Self.smtplibSession, String(control.port)])
        #expect(theirs.stdout == Self.expected, "aiosmtpd: \(theirs.stdout)\(theirs.stderr)")
        #expect(control.nextLine().hasPrefix("delivered ann@example.com bob@example.com,carol@example.com"))
    }

    @Test("curl sends over smtp://, STARTTLS (--ssl-reqd) and smtps://, and POP3 reads what it sent")
    func curl() throws {
        let file = try Tools.temporaryDirectory().appendingPathComponent("message.eml")
        try Data(Self.message.utf8).write(to: file)
        let send = ["--mail-from", "ann@example.com", "--mail-rcpt", "bob@example.com", "--upload-file", file.path]
        let plain = try MailTestServer()
        let sent = try Tools.curl(send + ["smtp://127.0.0.1:\(plain.smtpPort)"])
        #expect(sent.status == 0, "\(sent)")
        let read = try Tools.curl(["-s", "--user", "bob@example.com:x", "pop3://127.0.0.1:\(plain.pop3Port)/1"])
        #expect(read.stdout == Self.message, "\(read)")
        let starttls = try MailTestServer(tls: .explicit) { $0.tlsRequired = true }
        let refused = try Tools.curl(send + ["smtp://127.0.0.1:\(starttls.smtpPort)"])
        #expect(refused.status != 0, "a plain send was taken though TLS is required: \(refused)")
        let secured = try Tools.curl(send + ["--ssl-reqd", "--cacert", try #require(starttls.caFile), "smtp://localhost:\(starttls.smtpPort)"])
        #expect(secured.status == 0, "\(secured)")
        #expect(starttls.store.transactions.count == 1)
        if case .smtp(_, _, let security, _)? = starttls.store.transactions.first?.envelope.origin {
            #expect(security == .startTLS)
        } else {
            Issue.record("no SMTP origin")
        }
        let implicit = try MailTestServer(tls: .implicit)
        let smtps = try Tools.curl(send + ["--cacert", try #require(implicit.caFile), "smtps://localhost:\(implicit.smtpPort)"])
        #expect(smtps.status == 0, "\(smtps)")
        #expect(implicit.store.transactions.count == 1)
    }

    /// swaks (Debian's 20201014) knows PLAIN, LOGIN and CRAM-MD5, not XOAUTH2: curl's `--oauth2-bearer` logs in with that.
    @Test("swaks logs in with each AUTH mechanism it has, and a wrong password gets 535", arguments: ["PLAIN", "LOGIN", "CRAM-MD5"])
    func swaks(mechanism: String) throws {
        let server = try MailTestServer { $0.users = MailUsers(accounts: [MailboxAddress("ann@example.com"): "secret"]) }
        let common = ["--server", "127.0.0.1", "--port", String(server.smtpPort), "--from", "ann@example.com", "--to", "bob@example.com",
                      "--auth", mechanism, "--auth-user", "ann@example.com", "--helo", "client.example", "--timeout", "10"]
        let good = try Tools.run("swaks", common + ["--auth-password", "secret"])
        #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
        #expect(server.store.transactions.count == 1)
        let bad = try Tools.run("swaks", common + ["--auth-password", "wrong"])
        #expect(bad.status != 0)
        #expect(bad.stdout.contains("535"), "\(bad.stdout)")
        #expect(server.store.transactions.count == 1)
    }

    @Test("curl logs in with XOAUTH2 (--oauth2-bearer): the account's password is its token; a wrong one gets the error challenge")
    func xoauth2() throws {
        let server = try MailTestServer { $0.users = MailUsers(accounts: [MailboxAddress("ann@example.com"): "token-1"]) }
        let file = try Tools.temporaryDirectory().appendingPathComponent("message.eml")
        try Data(Self.message.utf8).write(to: file)
        let send = ["--mail-from", "ann@example.com", "--mail-rcpt", "bob@example.com", "--upload-file", file.path, "--login-options", "AUTH=XOAUTH2",
                    "--user", "ann@example.com:", "smtp://127.0.0.1:\(server.smtpPort)"]
        let good = try Tools.curl(send + ["--oauth2-bearer", "token-1"])
        #expect(good.status == 0, "\(good)")
        let bad = try Tools.curl(send + ["--oauth2-bearer", "expired", "-v"])
        #expect(bad.status == 67, "\(bad.status) \(bad.stderr)")
        // The error challenge (a base64 JSON status, as Google's), after which curl gives up (67).
        #expect(bad.stderr.contains("< 334 eyJzdGF0dXMiOiI0MDEi"), "\(bad.stderr)")
        #expect(server.store.transactions.count == 1)
    }

    @Test("errors on demand: MAIL refused 451, one recipient refused 550, the message refused at its end")
    func faults() throws {
        let faults = MailFaultPlan([
            MailFaultRule(at: .smtpMail, .reply(code: 451, text: "4.3.0 Try again later"), sender: "flaky@example.com"),
            MailFaultRule(at: .smtpRecipient, .reply(code: 550, text: "5.1.1 No such user"), recipient: "nobody@example.com"),
            MailFaultRule(at: .smtpEndOfData, .reply(code: 554, text: "5.6.0 Rejected"), sender: "spam@example.com"),
        ])
        let server = try MailTestServer(faults: faults)
        let result = try Tools.python("""
            import smtplib
            with smtplib.SMTP("127.0.0.1", \(server.smtpPort), timeout=10) as smtp:
                try:
                    smtp.sendmail("flaky@example.com", ["bob@example.com"], "Subject: a\\r\\n\\r\\nx\\r\\n")
                except smtplib.SMTPSenderRefused as error:
                    print("sender", error.smtp_code, error.smtp_error.decode())
                print("refused", smtp.sendmail("ann@example.com", ["bob@example.com", "nobody@example.com"], "Subject: b\\r\\n\\r\\nx\\r\\n"))
                try:
                    smtp.sendmail("spam@example.com", ["bob@example.com"], "Subject: c\\r\\n\\r\\nx\\r\\n")
                except smtplib.SMTPDataError as error:
                    print("data", error.smtp_code, error.smtp_error.decode())
            """)
        #expect(result.stdout == """
            sender 451 4.3.0 Try again later
            refused {'nobody@example.com': (550, b'5.1.1 No such user')}
            data 554 5.6.0 Rejected

            """, "\(result)")
        #expect(server.store.transactions.map(\.envelope.recipients) == [["bob@example.com"]])
    }

    @Test("SIZE: announced with the limit, and a larger message refused with 552")
    func size() throws {
        let server = try MailTestServer { $0.maximumMessageSize = 1000 }
        let result = try Tools.python("""
            import smtplib
            with smtplib.SMTP("127.0.0.1", \(server.smtpPort), timeout=10) as smtp:
                smtp.ehlo()
                print("size", smtp.esmtp_features.get("size"))
                try:
                    smtp.sendmail("ann@example.com", ["bob@example.com"], "Subject: big\\r\\n\\r\\n" + "x" * 2000 + "\\r\\n")
                except (smtplib.SMTPSenderRefused, smtplib.SMTPDataError) as error:
                    print("refused", error.smtp_code)
            """)
        #expect(result.stdout == "size 1000\nrefused 552\n", "\(result)")
        #expect(server.store.transactions.isEmpty)
    }
}
