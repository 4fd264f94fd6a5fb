import Foundation
import Testing
import TestSupport

/// getmail6 retrieving over IMAP (`SimpleIMAPRetriever`, and `SimpleIMAPSSLRetriever` with the
/// test CA as `ca_certs`) the INBOX of each server under test on the seed into an mboxrd file;
/// then its failures: a wrong password, TLS required but not used.
@Suite("getmail6 retrieves over IMAP from each IMAP server on the seed", .offPool,
       .enabled(if: Tools.path(of: "getmail") != nil && IMAPServerUnderTest.tested.allSatisfy(\.isAvailable), "needs getmail6 and dovecot-imapd"))
struct IMAPGetmailClientTests {
    /// The seed's INBOX as getmail should have delivered it.
    static var inbox: [String] { FetchedMail.expected(IMAPSeed.messages(of: IMAPSeed.ann).map(\.raw)) }

    @Test("plain and imaps: getmail retrieves the seed's INBOX", arguments: IMAPServerUnderTest.tested)
    func retrieves(server: IMAPServerUnderTest) throws {
        let running = try server.start(seed: try IMAPSeed.make(), tls: .implicit, users: [IMAPSeed.ann: "secret"])
        defer { running.stop() }
        let plain = try GetmailClientTests.retrieve(port: running.port, imap: true, host: running.host)
        #expect(plain.result.status == 0, "\(server): \(plain.result.stdout)\(plain.result.stderr)")
        #expect(plain.messages == Self.inbox, "\(server): \(plain.result.stdout)\(plain.result.stderr)")
        let secure = try GetmailClientTests.retrieve(port: try #require(running.tlsPort), implicitTLS: true, ca: running.caFile, imap: true)
        #expect(secure.result.status == 0, "\(server): \(secure.result.stdout)\(secure.result.stderr)")
        #expect(secure.messages == Self.inbox, "\(server): \(secure.result.stdout)\(secure.result.stderr)")
    }

    @Test("a wrong password, and TLS required but not used: getmail fails and retrieves nothing", arguments: IMAPServerUnderTest.tested)
    func refused(server: IMAPServerUnderTest) throws {
        let running = try server.start(seed: try IMAPSeed.make(), tls: .explicit, users: [IMAPSeed.ann: "secret"], tlsRequired: true)
        defer { running.stop() }
        let wrong = try GetmailClientTests.retrieve(port: running.port, password: "wrong", imap: true, host: running.host)
        #expect(wrong.result.status != 0, "\(server): \(wrong.result.stdout)\(wrong.result.stderr)")
        #expect(wrong.messages.isEmpty)
        let plain = try GetmailClientTests.retrieve(port: running.port, imap: true, host: running.host)
        #expect(plain.result.status != 0, "\(server): \(plain.result.stdout)\(plain.result.stderr)")
        #expect(plain.messages.isEmpty)
    }
}
