import Foundation
import MockServerTLS
import Testing
import TestSupport

/// Jakarta Mail's IMAP store, as a Java application uses it, against each server under test on
/// the seed (the compile-once program of ``JakartaMail``, its `imap` mode): folders and their
/// special use, INBOX read, a draft appended with UIDPLUS's `AppendUID`, a message moved, IDLE
/// told of a message the test delivers; plain, over STARTTLS (required) and imaps with the test
/// CA; and its failures: a wrong password, TLS required but not used.
@Suite("Jakarta Mail's IMAP store against each IMAP server on the seed", .offPool,
       .enabled(if: JakartaMail.isAvailable && IMAPServerUnderTest.tested.allSatisfy(\.isAvailable), "needs a JDK, libjakarta-mail-java and dovecot-imapd"))
struct JakartaMailIMAPClientTests {
    /// What the program prints up to its IDLE, and after the delivery.
    static let expected = [
        "folders [Archive, Archive/2026, Drafts, INBOX, Junk, Sent, Trash] separator /",
        "sent is special true",
        "inbox 8 unread 3",
        "first Lunch on Friday from Bob <bob@example.com> seen true",
        "appenduid true",
        "appended Saved by Jakarta Mail draft true drafts 2",
        "moved 1 left 0 archive 1",
        "idling",
        "after idle 1",
    ]

    /// Runs the program's `imap` mode against `server`, delivering a message once it says `idling`;
    /// the lines it printed, and its standard error.
    static func session(_ server: IMAPTestServer, security: TLSSettings.Mode?, password: String = "secret") throws -> (lines: [String], errors: String, status: Int32) {
        let how: [String] = switch security {
        case nil: ["plain", server.host, String(server.port)]
        case .explicit?: ["starttls", server.tlsHost, String(server.port)]
        case .implicit?: ["tls", server.tlsHost, String(server.tlsPort ?? 0)]
        }
        let arguments = try JakartaMail.javaArguments(["imap"] + how + [IMAPSeed.ann, password, server.caFile ?? "-"])
        let child = try ChildProcess(try #require(Tools.path(of: "java")), arguments)
        var lines: [String] = []
        while true {
            let line = PipeReading.readLine(child.output)
            if line.isEmpty { break }
            lines.append(line)
            if line == "idling" {
                try server.deliver("From: Bob <bob@example.com>\r\nTo: ann@example.com\r\nSubject: Arrived while Java idled\r\n\r\nHello.\r\n", to: IMAPSeed.ann)
            }
        }
        let errors = String(decoding: PipeReading.readToEnd(child.errors), as: UTF8.self)
        return (lines, errors, child.wait())
    }

    @Test("plain, STARTTLS (required) and imaps: folders, read, APPENDUID, move, IDLE",
          arguments: IMAPServerUnderTest.tested, [TLSSettings.Mode?.none, .explicit, .implicit])
    func session(server: IMAPServerUnderTest, mode: TLSSettings.Mode?) throws {
        let running = try server.start(seed: try IMAPSeed.make(), tls: mode, users: mode == nil ? nil : [IMAPSeed.ann: "secret"], tlsRequired: mode == .explicit)
        defer { running.stop() }
        let session = try Self.session(running, security: mode)
        #expect(session.status == 0, "\(server): \(session.errors)")
        #expect(session.lines == Self.expected, "\(server): \(session.errors)")
    }

    @Test("a wrong password (AuthenticationFailedException), and a plain login when TLS is required: refused", arguments: IMAPServerUnderTest.tested)
    func refused(server: IMAPServerUnderTest) throws {
        let running = try server.start(seed: try IMAPSeed.make(), tls: .explicit, users: [IMAPSeed.ann: "secret"], tlsRequired: true)
        defer { running.stop() }
        let wrong = try Self.session(running, security: .explicit, password: "wrong")
        #expect(wrong.status == 1)
        #expect(wrong.lines.first?.hasPrefix("error AuthenticationFailedException") == true, "\(server): \(wrong.lines) \(wrong.errors)")
        let plain = try Self.session(running, security: nil)
        #expect(plain.status == 1)
        #expect(plain.lines.first?.hasPrefix("error ") == true, "\(server): \(plain.lines) \(plain.errors)")
    }
}
