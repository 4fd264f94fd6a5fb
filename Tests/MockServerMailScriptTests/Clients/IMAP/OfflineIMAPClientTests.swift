import Foundation
import MockServerTLS
import Testing
import TestSupport

/// `offlineimap3` against each server under test on the seed: the seed synced to a local Maildir
/// (folders nested with `sep = /`), then changes on both sides synced both ways
/// (``IMAPSyncScenario``); over imaps with the test CA (not STARTTLS: see ``tls(server:)``); and its failures: a wrong
/// password, TLS required but not used.
@Suite("offlineimap syncs both ways with each IMAP server on the seed", .offPool,
       .enabled(if: Tools.path(of: "offlineimap") != nil && IMAPServerUnderTest.tested.allSatisfy(\.isAvailable), "needs offlineimap3 and dovecot-imapd"))
struct OfflineIMAPClientTests {
    /// A folder with an offlineimap configuration for `server`, and the local Maildir root.
    ///
    /// - Parameter security: nil (plain), `.explicit` (STARTTLS), `.implicit` (imaps); with TLS,
    ///   the test CA is the only trust.
    static func configure(_ server: IMAPTestServer, security: TLSSettings.Mode? = nil, password: String = "secret") throws -> (rc: URL, local: URL) {
        let folder = try Tools.temporaryDirectory()
        let local = folder.appendingPathComponent("local", isDirectory: true)
        var remote = ["[Repository remote]", "type = IMAP", "remoteuser = \(IMAPSeed.ann)", "remotepass = \(password)"]
        switch security {
        case nil: remote += ["remotehost = \(server.host)", "remoteport = \(server.port)", "ssl = no", "starttls = no"]
        case .explicit?: remote += ["remotehost = \(server.tlsHost)", "remoteport = \(server.port)", "ssl = no", "starttls = yes", "sslcacertfile = \(server.caFile ?? "")"]
        case .implicit?: remote += ["remotehost = \(server.tlsHost)", "remoteport = \(server.tlsPort ?? 0)", "ssl = yes", "sslcacertfile = \(server.caFile ?? "")"]
        }
        let lines = ["[general]", "accounts = test", "metadata = \(folder.path)/metadata", "",
                     "[Account test]", "localrepository = local", "remoterepository = remote", "",
                     "[Repository local]", "type = Maildir", "localfolders = \(local.path)", "sep = /", ""] + remote
        let rc = folder.appendingPathComponent("offlineimaprc")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: rc)
        return (rc, local)
    }

    /// Runs one sync (`-o`) with `rc`, quietly.
    static func sync(_ rc: URL) throws -> Tools.Result {
        try Tools.run("offlineimap", ["-c", rc.path, "-o", "-u", "quiet"], timeout: 90)
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

    /// Over imaps only. offlineimap's IMAP library (imaplib2 2.57) races with itself on STARTTLS:
    /// its reader thread may stop after the line *before* the STARTTLS answer, and the command then
    /// waits for ever. Against a 20-line Python STARTTLS server, 9 of 200 `starttls()` calls hung with
    /// a short GIL switch interval; under CI's load it hung against Dovecot (3 of about 20 whole
    /// runs) and against ours (session 32's last CI). STARTTLS is tested with mbsync, neomutt,
    /// fetchmail, getmail, curl, Jakarta Mail and Python's imaplib.
    @Test("over imaps with the test CA; a wrong password fails and syncs nothing", arguments: IMAPServerUnderTest.tested)
    func tls(server: IMAPServerUnderTest) throws {
        let mode = TLSSettings.Mode.implicit
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
        let nothing = FileManager.default.fileExists(atPath: wrongLocal.path) ? try IMAPSyncScenario.maildir(wrongLocal) : []
        #expect(nothing.isEmpty)
    }

    @Test("TLS required but offlineimap told not to use it: no login, nothing synced", arguments: IMAPServerUnderTest.tested)
    func tlsRequiredButNotUsed(server: IMAPServerUnderTest) throws {
        let running = try server.start(seed: try IMAPSeed.make(), tls: .explicit, tlsRequired: true)
        defer { running.stop() }
        let (rc, local) = try Self.configure(running)
        let refused = try Self.sync(rc)
        #expect(refused.status != 0, "\(server): \(refused.stdout)\(refused.stderr)")
        let nothing = FileManager.default.fileExists(atPath: local.path) ? try IMAPSyncScenario.maildir(local) : []
        #expect(nothing.isEmpty)
    }
}
