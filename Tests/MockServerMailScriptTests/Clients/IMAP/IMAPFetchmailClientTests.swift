import Foundation
import MockServerTLS
import Testing
import TestSupport

/// fetchmail fetching over IMAP (`protocol imap`, plain, STARTTLS and imaps with the test CA as
/// its `sslcertfile`) the INBOX of each server under test on the seed, each message handed to an
/// MDA that writes it to a file; then its failures: a wrong password, TLS required but not used.
@Suite("fetchmail fetches over IMAP from each IMAP server on the seed", .offPool,
       .enabled(if: Tools.path(of: "fetchmail") != nil && IMAPServerUnderTest.tested.allSatisfy(\.isAvailable), "needs fetchmail and dovecot-imapd"))
struct IMAPFetchmailClientTests {
    @Test("plain: fetchmail fetches the seed's INBOX and keeps it", arguments: IMAPServerUnderTest.tested)
    func fetches(server: IMAPServerUnderTest) throws {
        let running = try server.start(seed: try IMAPSeed.make())
        defer { running.stop() }
        let fetched = try FetchmailClientTests.fetch(port: running.port, security: nil, ca: nil, imap: true, host: running.host)
        #expect(fetched.result.status == 0, "\(server): \(fetched.result.stderr)")
        #expect(fetched.messages == IMAPGetmailClientTests.inbox, "\(server)")
        // `keep`: all eight still there, and now all seen.
        let left = try IMAPSyncScenario.server(running).filter { $0.hasPrefix("INBOX|") }
        #expect(left.count == 8 && left.allSatisfy { $0.hasSuffix("S") }, "\(server): \(left)")
    }

    @Test("fetchmail verifies the test CA and fetches over STARTTLS (TLS required) and imaps",
          arguments: IMAPServerUnderTest.tested, [TLSSettings.Mode.explicit, .implicit])
    func tls(server: IMAPServerUnderTest, mode: TLSSettings.Mode) throws {
        let running = try server.start(seed: try IMAPSeed.make(), tls: mode, users: [IMAPSeed.ann: "secret"], tlsRequired: mode == .explicit)
        defer { running.stop() }
        let port = mode == .explicit ? running.port : try #require(running.tlsPort)
        let fetched = try FetchmailClientTests.fetch(port: port, security: mode, ca: running.caFile, imap: true)
        #expect(fetched.result.status == 0, "\(server): \(fetched.result.stderr)")
        #expect(fetched.messages == IMAPGetmailClientTests.inbox, "\(server)")
    }

    @Test("a wrong password (exit 3), and TLS required but not used: nothing fetched", arguments: IMAPServerUnderTest.tested)
    func refused(server: IMAPServerUnderTest) throws {
        let running = try server.start(seed: try IMAPSeed.make(), tls: .explicit, users: [IMAPSeed.ann: "secret"], tlsRequired: true)
        defer { running.stop() }
        let wrong = try FetchmailClientTests.fetch(port: running.port, security: .explicit, ca: running.caFile, password: "wrong", imap: true)
        #expect(wrong.result.status == 3, "\(server): \(wrong.result.status) \(wrong.result.stderr)")
        #expect(wrong.messages.isEmpty)
        let plain = try FetchmailClientTests.fetch(port: running.port, security: nil, ca: nil, imap: true, host: running.host)
        #expect(plain.result.status != 0, "\(server): \(plain.result.status) \(plain.result.stderr)")
        #expect(plain.messages.isEmpty)
    }
}
