import Foundation
import MockServerTLS
import Testing
import TestSupport

/// neomutt against each server under test on the seed, driven headless: its index needs a
/// terminal, so it runs under util-linux's `script` (a pseudo-terminal, no one typing) with its
/// keys pushed by `-e 'push …'`: it pipes the first message (sorted by date) to a file, moves one
/// message to Archive by `<save-message>`, flags another, syncs and quits; over STARTTLS and imaps
/// it trusts only the test CA. (Its batch mode does not save to IMAP: "Fcc to an IMAP mailbox is
/// not supported in batch mode"; and a refused login leaves it waiting at a password prompt, so
/// its failure paths are not driven here.)
@Suite("neomutt reads, moves and flags on each IMAP server on the seed", .offPool,
       .enabled(if: Tools.path(of: "neomutt") != nil && Tools.path(of: "script") != nil && IMAPServerUnderTest.tested.allSatisfy(\.isAvailable),
                "needs neomutt, script (util-linux) and dovecot-imapd"))
struct NeomuttClientTests {
    /// Runs neomutt once with a configuration for `server` and `keys` pushed, in a new home.
    ///
    /// - Parameter security: nil (plain), `.explicit` (STARTTLS, forced), `.implicit` (imaps).
    static func run(_ server: IMAPTestServer, security: TLSSettings.Mode?, keys: String) throws -> Tools.Result {
        let home = try Tools.temporaryDirectory()
        let folder: String
        var lines = ["set imap_user = \"\(IMAPSeed.ann)\"", "set imap_pass = \"secret\"", "set confirmappend = no", "set confirmcreate = no",
                     "set delete = yes", "set move = no", "set mark_old = no", "set wait_key = no", "set pipe_decode = no", "set sort = date-sent",
                     "set header_cache = \"\"", "set message_cachedir = \"\""]
        switch security {
        case nil:
            folder = "imap://\(server.host):\(server.port)/"
            lines += ["set ssl_starttls = no", "set ssl_force_tls = no"]
        case .explicit?:
            folder = "imap://\(server.tlsHost):\(server.port)/"
            lines += ["set ssl_starttls = yes", "set ssl_force_tls = yes", "set ssl_ca_certificates_file = \"\(server.caFile ?? "")\""]
        case .implicit?:
            folder = "imaps://\(server.tlsHost):\(server.tlsPort ?? 0)/"
            lines += ["set ssl_ca_certificates_file = \"\(server.caFile ?? "")\""]
        }
        lines += ["set folder = \"\(folder)\"", "set spoolfile = \"+INBOX\""]
        let rc = home.appendingPathComponent("neomuttrc")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: rc)
        let command = "neomutt -n -F \(rc.path) -e 'push \"\(keys)\"'"
        return try Tools.run("script", ["-qec", command, "/dev/null"], timeout: 30, environment: ["HOME": home.path, "TERM": "xterm"])
    }

    @Test("plain: the first message piped out, one moved to Archive, one flagged", arguments: IMAPServerUnderTest.tested)
    func readsMovesFlags(server: IMAPServerUnderTest) throws {
        let running = try server.start(seed: try IMAPSeed.make())
        defer { running.stop() }
        let out = try Tools.temporaryDirectory().appendingPathComponent("piped.eml")
        let keys = "<first-entry><pipe-message>cat > \(out.path)<enter><limit>~s keys<enter><save-message>=Archive<enter>"
            + "<limit>~s report<enter><flag-message><sync-mailbox><quit>"
        let result = try Self.run(running, security: nil, keys: keys)
        #expect(result.status == 0, "\(server): \(result.stderr)")
        let piped = String(decoding: (try? Data(contentsOf: out)) ?? Data(), as: UTF8.self)
        #expect(piped == IMAPSeed.lunch.replacingOccurrences(of: "\r\n", with: "\n"), "\(server)")
        let after = try IMAPSyncScenario.server(running)
        let expected = IMAPSyncScenario.seeded.filter { !$0.hasPrefix("INBOX|Urgent") && !$0.hasPrefix("INBOX|Quarterly") }
            + ["Archive|Urgent: keys|FS", "INBOX|Quarterly report|F"]
        #expect(after == expected.sorted(), "\(server)")
    }

    @Test("over STARTTLS and imaps with the test CA: the first message piped out", arguments: IMAPServerUnderTest.tested, [TLSSettings.Mode.explicit, .implicit])
    func tls(server: IMAPServerUnderTest, mode: TLSSettings.Mode) throws {
        let running = try server.start(seed: try IMAPSeed.make(), tls: mode, users: [IMAPSeed.ann: "secret"], tlsRequired: mode == .explicit)
        defer { running.stop() }
        let out = try Tools.temporaryDirectory().appendingPathComponent("piped.eml")
        let result = try Self.run(running, security: mode, keys: "<first-entry><pipe-message>cat > \(out.path)<enter><quit>")
        #expect(result.status == 0, "\(server): \(result.stderr)")
        let piped = String(decoding: (try? Data(contentsOf: out)) ?? Data(), as: UTF8.self)
        #expect(piped == IMAPSeed.lunch.replacingOccurrences(of: "\r\n", with: "\n"), "\(server)")
    }
}
