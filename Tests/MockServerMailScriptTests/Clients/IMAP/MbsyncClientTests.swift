import Foundation
import MockServerTLS
import Testing
import TestSupport

/// isync's `mbsync` against each server under test on the seed: the seed synced down to a local
/// Maildir, then changes on both sides synced both ways (``IMAPSyncScenario``: new mail, flags,
/// a move, deletions); over STARTTLS and imaps with the test CA; and its failures: a wrong
/// password, TLS required but not used.
@Suite("mbsync syncs both ways with each IMAP server on the seed", .offPool,
       .enabled(if: Tools.path(of: "mbsync") != nil && IMAPServerUnderTest.tested.allSatisfy(\.isAvailable), "needs mbsync (isync) and dovecot-imapd"))
struct MbsyncClientTests {
    /// A folder with an mbsync configuration for `server`, and the local Maildir root it syncs into.
    ///
    /// - Parameter security: nil (plain), `.explicit` (STARTTLS, which mbsync then requires),
    ///   `.implicit` (imaps); with TLS, the test CA is the only trust.
    static func configure(_ server: IMAPTestServer, security: TLSSettings.Mode? = nil, password: String = "secret") throws -> (rc: URL, local: URL) {
        let folder = try Tools.temporaryDirectory()
        let local = folder.appendingPathComponent("local", isDirectory: true)
        try FileManager.default.createDirectory(at: local, withIntermediateDirectories: true)
        var account = ["IMAPAccount account", "User \(IMAPSeed.ann)", "Pass \(password)", "AuthMechs LOGIN"]
        switch security {
        case nil: account += ["Host \(server.host)", "Port \(server.port)", "SSLType None"]
        case .explicit?: account += ["Host \(server.tlsHost)", "Port \(server.port)", "SSLType STARTTLS", "CertificateFile \(server.caFile ?? "")"]
        case .implicit?: account += ["Host \(server.tlsHost)", "Port \(server.tlsPort ?? 0)", "SSLType IMAPS", "CertificateFile \(server.caFile ?? "")"]
        }
        let lines = account + ["", "IMAPStore remote", "Account account", "",
                               "MaildirStore local", "Path \(local.path)/", "Inbox \(local.path)/INBOX", "SubFolders Verbatim", "",
                               "Channel sync", "Far :remote:", "Near :local:", "Patterns *", "Create Both", "Remove Both", "Expunge Both", "SyncState *"]
        let rc = folder.appendingPathComponent("mbsyncrc")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: rc)
        return (rc, local)
    }

    /// Runs `mbsync -a` with `rc`.
    static func sync(_ rc: URL) throws -> Tools.Result {
        try Tools.run("mbsync", ["-c", rc.path, "-a"], timeout: 60)
    }

    @Test("the seed synced down, then both sides' changes synced both ways", arguments: IMAPServerUnderTest.tested)
    func syncsBothWays(server: IMAPServerUnderTest) throws {
        let running = try server.start(seed: try IMAPSeed.make())
        defer { running.stop() }
        let (rc, local) = try Self.configure(running)
        let first = try Self.sync(rc)
        #expect(first.status == 0, "\(server): \(first.stdout)\(first.stderr)")
        let down = try IMAPSyncScenario.maildir(local)
        #expect(down == IMAPSyncScenario.seeded, "\(server)")
        try IMAPSyncScenario.changeMaildir(local)
        try IMAPSyncScenario.changeServer(running)
        let second = try Self.sync(rc)
        #expect(second.status == 0, "\(server): \(second.stdout)\(second.stderr)")
        let near = try IMAPSyncScenario.maildir(local)
        #expect(near == IMAPSyncScenario.afterChanges, "\(server): the local side")
        let far = try IMAPSyncScenario.server(running)
        #expect(far == IMAPSyncScenario.afterChanges, "\(server): the server's side")
    }

    @Test("over STARTTLS and imaps with the test CA; a wrong password fails and syncs nothing",
          arguments: IMAPServerUnderTest.tested, [TLSSettings.Mode.explicit, .implicit])
    func tls(server: IMAPServerUnderTest, mode: TLSSettings.Mode) throws {
        let running = try server.start(seed: try IMAPSeed.make(), tls: mode, users: [IMAPSeed.ann: "secret"])
        defer { running.stop() }
        let (rc, local) = try Self.configure(running, security: mode)
        let synced = try Self.sync(rc)
        #expect(synced.status == 0, "\(server): \(synced.stdout)\(synced.stderr)")
        let down = try IMAPSyncScenario.maildir(local)
        #expect(down == IMAPSyncScenario.seeded, "\(server)")
        let (wrongRC, wrongLocal) = try Self.configure(running, security: mode, password: "wrong")
        let wrong = try Self.sync(wrongRC)
        #expect(wrong.status != 0, "\(server): \(wrong.stdout)\(wrong.stderr)")
        #expect(try IMAPSyncScenario.maildir(wrongLocal).isEmpty)
    }

    @Test("TLS required but mbsync told not to use it: no login, nothing synced", arguments: IMAPServerUnderTest.tested)
    func tlsRequiredButNotUsed(server: IMAPServerUnderTest) throws {
        let running = try server.start(seed: try IMAPSeed.make(), tls: .explicit, tlsRequired: true)
        defer { running.stop() }
        let (rc, local) = try Self.configure(running)
        let refused = try Self.sync(rc)
        #expect(refused.status != 0, "\(server): \(refused.stdout)\(refused.stderr)")
        #expect(try IMAPSyncScenario.maildir(local).isEmpty)
    }
}
