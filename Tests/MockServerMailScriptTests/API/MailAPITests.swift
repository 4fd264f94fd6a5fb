import Foundation
import MockServerEngine
import MockServerMailScript
import Testing
import TestSupport

/// `MockServer.Mail`, the Swift face of the mail server, driven by Python's smtplib.
@Suite("MockServer.Mail: messages, waits, purge and failures from Swift", .offPool)
struct MailAPITests {
    /// Sends each `(sender, recipients, message)` with smtplib, printing refusals.
    private func send(_ port: UInt16, _ messages: [(String, [String], String)]) throws -> String {
        let calls = messages.map { sender, recipients, body in
            "    try:\n        print(smtp.sendmail(\(pyString(sender)), [\(recipients.map(pyString).joined(separator: ", "))], \(pyString(body))))\n    except smtplib.SMTPException as error:\n        print(type(error).__name__, getattr(error, 'smtp_code', None) or getattr(error, 'recipients', None))"
        }.joined(separator: "\n")
        let result = try Tools.python("import smtplib\nwith smtplib.SMTP('127.0.0.1', \(port), timeout=10) as smtp:\n\(calls)\n")
        #expect(result.status == 0, "\(result)")
        return result.stdout
    }

    private func pyString(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'").replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n") + "'"
    }

    static let withAttachment = """
        From: Ann <ann@example.com>\r
        To: bob@example.com\r
        Cc: carol@example.com\r
        Subject: =?utf-8?q?R=C3=A9sum=C3=A9?=\r
        MIME-Version: 1.0\r
        Content-Type: multipart/mixed; boundary="b"\r
        \r
        --b\r
        Content-Type: text/plain; charset=utf-8\r
        \r
        See attached.\r
        --b\r
        Content-Type: application/pdf\r
        Content-Disposition: attachment; filename="cv.pdf"\r
        Content-Transfer-Encoding: base64\r
        \r
        JVBERi0=\r
        --b--\r

        """

    @Test("a message to three recipients is one message with its Bcc from the envelope, parsed: subject decoded, body, attachment")
    func parsedMessage() async throws {
        let mail = try MockServer.Mail()
        try mail.start()
        defer { mail.stop() }
        _ = try send(mail.smtpPort, [("ann@example.com", ["bob@example.com", "carol@example.com", "dave@example.com"], Self.withAttachment)])
        let message = try await mail.waitForMessage(to: "dave@example.com", subject: "Résumé", timeout: .seconds(10))
        #expect(message.sender == "ann@example.com")
        #expect(message.recipients == ["bob@example.com", "carol@example.com", "dave@example.com"])
        #expect(message.from == ["ann@example.com"])
        #expect(message.to == ["bob@example.com"])
        #expect(message.cc == ["carol@example.com"])
        #expect(message.bcc == ["dave@example.com"])
        #expect(message.text?.hasPrefix("See attached.") == true)
        #expect(message.attachments.map(\.fileName) == ["cv.pdf"])
        #expect(message.attachments.first?.data == Data("%PDF-".utf8))
        #expect(message.header("mime-version") == "1.0")
        #expect(message.raw == Data(Self.withAttachment.utf8))
        #expect(mail.messages.count == 1)
        #expect(mail.messages(to: "dave@EXAMPLE.COM").count == 1)
        #expect(mail.messages(to: "erin@example.com").isEmpty)
        mail.purge()
        #expect(mail.messages.isEmpty)
    }

    @Test("a wait that runs out of time says what it waited for and lists what arrived")
    func timeout() async throws {
        let mail = try MockServer.Mail()
        try mail.start()
        defer { mail.stop() }
        _ = try send(mail.smtpPort, [("ann@example.com", ["bob@example.com"], "Subject: not this one\r\n\r\nx\r\n")])
        do {
            _ = try await mail.waitForMessage(to: "bob@example.com", subject: "Reset", timeout: .milliseconds(200))
            Issue.record("the wait found a message")
        } catch let timeout as MockServer.Mail.Timeout {
            #expect(timeout.description.contains("recipient bob@example.com and subject containing \"Reset\""), "\(timeout)")
            #expect(timeout.description.contains("not this one"), "\(timeout)")
        }
    }

    @Test("failures set from Swift reach the client, only for the recipient named, and go when removed")
    func failures() throws {
        let mail = try MockServer.Mail()
        try mail.start()
        defer { mail.stop() }
        mail.fail(at: .recipient, with: .reply(code: 452, text: "4.2.2 Mailbox full"), recipient: "bob@example.com")
        mail.fail(at: .sender, with: .reply(code: 421, text: "4.3.2 Closing"), sender: "spam@example.com")
        let output = try send(mail.smtpPort, [("ann@example.com", ["bob@example.com", "carol@example.com"], "Subject: a\r\n\r\nx\r\n")])
        #expect(output == "{'bob@example.com': (452, b'4.2.2 Mailbox full')}\n", "\(output)")
        mail.removeFailures()
        #expect(try send(mail.smtpPort, [("ann@example.com", ["bob@example.com"], "Subject: b\r\n\r\nx\r\n")]) == "{}\n")
        #expect(mail.messages(to: "bob@example.com").count == 1)
    }

    @Test("a fault seed makes the failures drawn with a probability the same on every run")
    func seeded() throws {
        func refusals() throws -> String {
            var configuration = MockServer.Mail.Configuration()
            configuration.faultSeed = 7
            let mail = try MockServer.Mail(configuration)
            try mail.start()
            defer { mail.stop() }
            mail.fail(at: .recipient, with: .reply(code: 450, text: "4.2.1 Busy"), probability: 0.5)
            return try send(mail.smtpPort, [("ann@example.com", (1...12).map { "r\($0)@example.com" }, "Subject: s\r\n\r\nx\r\n")])
        }
        let first = try refusals()
        #expect(first == (try refusals()))
        #expect(first.contains("450") && first.filter { $0 == "@" }.count < 12, "\(first)")
    }

    @Test("accounts: only they log in; a seed that cannot be read is refused naming it")
    func accountsAndSeed() throws {
        var configuration = MockServer.Mail.Configuration()
        configuration.accounts = ["ann@example.com": "secret"]
        let mail = try MockServer.Mail(configuration)
        try mail.start()
        defer { mail.stop() }
        let good = try Tools.curl(["--user", "ann@example.com:secret", "pop3://127.0.0.1:\(mail.pop3Port)/"])
        #expect(good.status == 0, "\(good)")
        let bad = try Tools.curl(["--user", "ann@example.com:wrong", "pop3://127.0.0.1:\(mail.pop3Port)/"])
        #expect(bad.status == 67, "\(bad)")
        configuration.seed = URL(fileURLWithPath: "/nonexistent/seed")
        #expect {
            try MockServer.Mail(configuration)
        } throws: { error in
            (error as? MockServer.Mail.SeedError)?.description.contains("/nonexistent/seed") == true
        }
    }
}
