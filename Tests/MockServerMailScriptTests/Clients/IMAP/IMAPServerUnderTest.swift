import Foundation
import MockServerMail
import MockServerMailScript
import MockServerTLS
import Testing
import TestSupport

/// The IMAP servers the client suites run against, each on the same seed: Dovecot (Debian's
/// `dovecot-imapd`), the control, and ours. Every suite takes one as its test argument and
/// expects only what the RFCs require, so that each expectation holds of both.
enum IMAPServerUnderTest: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// Dovecot 2.3's IMAP (``Dovecot``), the control.
    case dovecot
    /// Ours: `MailServer`'s IMAP listener.
    case mockserver

    /// The servers every IMAP client suite runs against: ours (`MailServer`'s IMAP listener on the
    /// seed) and Dovecot, the control, on a copy of the same seed.
    static let tested: [IMAPServerUnderTest] = [.mockserver, .dovecot]

    /// The server's name in test results.
    var testDescription: String { rawValue }

    /// Whether this server can be started here (Dovecot must be installed).
    var isAvailable: Bool {
        switch self {
        case .dovecot: Dovecot.hasIMAP
        case .mockserver: true
        }
    }

    /// Starts this server over a copy of `seed`.
    ///
    /// - Parameters:
    ///   - tls: `.explicit`: STARTTLS on ``IMAPTestServer/port``; `.implicit`: also an implicit-TLS
    ///     ``IMAPTestServer/tlsPort``; nil: no TLS.
    ///   - users: passwords by address; nil lets any address in with any password.
    ///   - tlsRequired: no login before STARTTLS on the plain port.
    func start(seed: URL, tls: TLSSettings.Mode? = nil, users: [String: String]? = nil, tlsRequired: Bool = false) throws -> IMAPTestServer {
        switch self {
        case .dovecot:
            var files: (certificate: String, key: String)?
            var ca: String?
            if tls != nil {
                let identity = try TLSSettings.Identity.generated()
                let folder = try Tools.temporaryDirectory()
                let names = ["certificate.pem": identity.certificatePEM, "key.pem": identity.privateKeyPEM, "ca.pem": identity.caCertificatePEM ?? ""]
                for (name, text) in names { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
                files = (folder.appendingPathComponent("certificate.pem").path, folder.appendingPathComponent("key.pem").path)
                ca = folder.appendingPathComponent("ca.pem").path
            }
            let dovecot = try Dovecot(seed: seed, tls: files, users: users, tlsRequired: tlsRequired)
            return IMAPTestServer(host: dovecot.plainHost, port: dovecot.imapPort, tlsPort: tls == .implicit ? dovecot.imapTLSPort : nil, caFile: ca,
                                  deliver: { raw, address in try dovecot.deliver(raw, to: address) }, stop: { dovecot.stop() })
        case .mockserver:
            let mailSeed = try MailSeed(directory: seed)
            let configure: (inout MailServerConfiguration) throws -> Void = {
                $0.seed = mailSeed
                $0.tlsRequired = tlsRequired
                if let users { $0.users = MailUsers(accounts: Dictionary(uniqueKeysWithValues: users.map { (MailboxAddress($0.key), $0.value) })) }
            }
            // Ours has one IMAP port, plain (STARTTLS offered with `.explicit`) or implicit TLS: for
            // `.implicit`, a second server on the same seed is the plain one (its own store).
            let server = try MailTestServer(tls: tls, configure)
            let plain = tls == .implicit ? try MailTestServer(configure) : server
            let deliver: (Data, String) throws -> Void = { raw, address in
                _ = server.store.deliver(raw, envelope: MailEnvelope(sender: "bob@example.com", recipients: [address], origin: .seed(path: "test")))
            }
            return IMAPTestServer(host: "127.0.0.1", port: plain.mail.imap.port, tlsPort: tls == .implicit ? server.mail.imap.port : nil, caFile: server.caFile,
                                  deliver: deliver, stop: { server.mail.stop(); plain.mail.stop() })
        }
    }
}

/// Why a server under test could not be started.
struct IMAPServerUnderTestError: Error, CustomStringConvertible {
    /// What went wrong, naming the server or the step.
    let description: String
    init(_ description: String) { self.description = description }
}
