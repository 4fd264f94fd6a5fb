import Foundation
import Testing
import TestSupport

/// `mockserver mail`: the first lines, the flags, and a message sent by curl over SMTP and read
/// back by curl over POP3 through the built executable.
@Suite("mockserver mail", .offPool)
struct MailCommandLineTests {
    /// The port at the end of a `mockserver NAME on HOST:PORT` line.
    private func port(_ line: String, name: String) -> UInt16? {
        guard line.hasPrefix("mockserver \(name) on 127.0.0.1:") else { return nil }
        return line.split(separator: ":").last.flatMap { UInt16($0) }
    }

    @Test("the first lines name SMTP's, POP3's and IMAP's ports, then the admin's; curl's message sent over SMTP is read back over POP3 and IMAP, logins as --user says")
    func sendAndRead() throws {
        let command = try RunningCommand(["mail", "--user", "bob@example.com:s3cret:with:colons", "--admin"])
        defer { _ = command.terminate() }
        let smtp = try #require(port(command.firstLine, name: "smtp"), "\(command.firstLine)")
        let pop3Line = command.nextLine()
        let pop3 = try #require(port(pop3Line, name: "pop3"), "\(pop3Line)")
        let imapLine = command.nextLine()
        let imap = try #require(port(imapLine, name: "imap"), "\(imapLine)")
        let adminLine = command.nextLine()
        #expect(adminLine.hasPrefix("mockserver admin on http://127.0.0.1:"), "\(adminLine)")
        let admin = try #require(adminLine.split(separator: " ").last.map(String.init))
        let message = "From: ann@example.com\r\nTo: bob@example.com\r\nSubject: via the CLI\r\n\r\nHi Bob.\r\n"
        let file = try Tools.temporaryDirectory().appendingPathComponent("message.eml")
        try Data(message.utf8).write(to: file)
        let sent = try Tools.curl(["--mail-from", "ann@example.com", "--mail-rcpt", "bob@example.com", "--upload-file", file.path, "smtp://127.0.0.1:\(smtp)"])
        #expect(sent.status == 0, "\(sent)")
        let read = try Tools.curl(["--user", "bob@example.com:s3cret:with:colons", "pop3://127.0.0.1:\(pop3)/1"])
        #expect(read.stdout == message, "\(read)")
        let refused = try Tools.curl(["--user", "bob@example.com:wrong", "pop3://127.0.0.1:\(pop3)/1"])
        #expect(refused.status == 67, "\(refused)")
        let fetched = try Tools.curl(["--user", "bob@example.com:s3cret:with:colons", "imap://127.0.0.1:\(imap)/INBOX;UID=1"])
        #expect(fetched.stdout == message, "\(fetched)")
        // The control API answers Mailpit's routes over the same mailbox.
        let listed = try Tools.python("""
            import json, urllib.request
            listing = json.load(urllib.request.urlopen("\(admin)api/v1/messages"))
            print(listing["total"], listing["messages"][0]["Subject"], listing["messages"][0]["To"][0]["Address"])
            """)
        #expect(listed.stdout == "1 via the CLI bob@example.com\n", "\(listed)")
    }

    @Test("--tls: both listeners are TLS from the first byte, with the CA --tls-ca-out wrote; --mail-dir seeds the mailbox")
    func implicitTLSAndSeed() throws {
        let folder = try Tools.temporaryDirectory()
        let maildir = folder.appendingPathComponent("seed/ann@example.com/cur")
        try FileManager.default.createDirectory(at: maildir, withIntermediateDirectories: true)
        let seeded = "From: carol@example.com\r\nTo: ann@example.com\r\nSubject: seeded\r\n\r\nFrom the seed.\r\n"
        try Data(seeded.utf8).write(to: maildir.appendingPathComponent("1700000000.M1P1.seed:2,S"))
        let ca = folder.appendingPathComponent("ca.pem").path
        let command = try RunningCommand(["mail", "--tls", "--tls-ca-out", ca, "--mail-dir", folder.appendingPathComponent("seed").path])
        defer { _ = command.terminate() }
        let smtp = try #require(port(command.firstLine, name: "smtp"), "\(command.firstLine)")
        let pop3Line = command.nextLine()
        let pop3 = try #require(port(pop3Line, name: "pop3"), "\(pop3Line)")
        let read = try Tools.curl(["--cacert", ca, "--user", "ann@example.com:any", "pop3s://localhost:\(pop3)/1"])
        #expect(read.stdout == seeded, "\(read)")
        let file = folder.appendingPathComponent("message.eml")
        try Data("Subject: hi\r\n\r\nhello\r\n".utf8).write(to: file)
        let sent = try Tools.curl(["--cacert", ca, "--mail-from", "bob@example.com", "--mail-rcpt", "ann@example.com", "--upload-file", file.path, "smtps://localhost:\(smtp)"])
        #expect(sent.status == 0, "\(sent)")
        let list = try Tools.curl(["--cacert", ca, "--user", "ann@example.com:any", "pop3s://localhost:\(pop3)/"])
        #expect(list.stdout.split(separator: "\r\n").count == 2, "\(list)")
    }

    @Test("bad arguments are refused with exit 64, naming the culprit and mail's own help", arguments: [
        (["mail", "--tls", "--starttls"], "mail: --tls and --starttls exclude each other"),
        (["mail", "--tls-ca-out", "/tmp/x.pem"], "mail: --tls-ca-out needs --tls or --starttls"),
        (["mail", "--tls-required"], "mail: --tls-required needs --tls or --starttls"),
        (["mail", "--user", "nobody"], "mail: --user takes ADDRESS:PASSWORD, not \"nobody\""),
        (["mail", "--max-size", "-1"], "mail: --max-size takes a number of bytes above 0, not \"-1\""),
        (["mail", "--smtp-port", "70000"], "mail: --smtp-port takes a port from 0 to 65535, not \"70000\""),
        (["mail", "--latency", "x"], "mail: --latency takes seconds from 0 to 3600, not \"x\""),
        (["mail", "--frobnicate"], "mail: unknown argument --frobnicate"),
    ])
    func badArguments(arguments: [String], message: String) throws {
        let result = try Tools.run(Tools.mockserver.path, arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.contains("Run mockserver mail --help for usage."), "\(result.stderr)")
    }

    @Test("an unreadable --mail-dir exits 66 naming it")
    func unreadableSeed() throws {
        let result = try Tools.run(Tools.mockserver.path, ["mail", "--mail-dir", "/nonexistent/seed"])
        #expect(result.status == 66)
        #expect(result.stderr.contains("/nonexistent/seed"), "\(result.stderr)")
    }

    @Test("--imap-port N serves IMAP on N, named by the third line; --hide-capability leaves MOVE out of CAPABILITY")
    func imapPort() throws {
        let free = try Tools.freePort()
        let command = try RunningCommand(["mail", "--imap-port", "\(free)", "--hide-capability", "move"])
        #expect(port(command.firstLine, name: "smtp") != nil, "\(command.firstLine)")
        #expect(port(command.nextLine(), name: "pop3") != nil)
        #expect(command.nextLine() == "mockserver imap on 127.0.0.1:\(free)")
        let capabilities = try Tools.curl(["--user", "ann@example.com:x", "-X", "CAPABILITY", "imap://127.0.0.1:\(free)/"])
        #expect(capabilities.stdout.contains("UIDPLUS") && !capabilities.stdout.contains(" MOVE"), "\(capabilities)")
        let (status, _) = command.terminate()
        #expect(status == 0)
    }

    @Test("--help shows mail's usage and exits 0")
    func help() throws {
        let result = try Tools.run(Tools.mockserver.path, ["mail", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("USAGE: mockserver mail [--smtp-port N] [--pop3-port N]"), "\(result.stdout)")
    }
}
