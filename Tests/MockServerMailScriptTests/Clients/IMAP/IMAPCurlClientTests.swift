import Foundation
import MockServerTLS
import Testing
import TestSupport

/// curl's `imap://` and `imaps://` against each server under test on the seed: listing folders,
/// a custom command (`-X 'UID SEARCH …'`), fetching a message and a section by UID, uploading
/// (APPEND); then over STARTTLS (`--ssl-reqd`) and imaps with the test CA, and its failures: a
/// wrong password, TLS required but not used (curl's exit 67, login denied), a missing UID (78).
@Suite("curl imap:// and imaps:// against each IMAP server on the seed", .offPool,
       .enabled(if: Tools.hasCurl && IMAPServerUnderTest.tested.allSatisfy(\.isAvailable), "needs curl and dovecot-imapd"))
struct IMAPCurlClientTests {
    /// The folders and their special uses, from the `* LIST (attributes) "/" name` lines curl
    /// prints: `name` or `name \Use`, sorted (the optional `\HasChildren`-like attributes left out).
    static func folders(_ listing: String) -> [String] {
        listing.split(separator: "\r\n").compactMap { line -> String? in
            guard line.hasPrefix("* LIST ("), let close = line.firstIndex(of: ")") else { return nil }
            let attributes = line[line.index(line.startIndex, offsetBy: 8)..<close].split(separator: " ")
            let uses = attributes.filter { ["\\Sent", "\\Drafts", "\\Trash", "\\Junk", "\\Archive"].contains(String($0)) }
            var name = String(line[line.index(after: close)...].dropFirst(5))
            if name.hasPrefix("\""), name.hasSuffix("\"") { name = String(name.dropFirst().dropLast()) }
            return ([name] + uses.map(String.init)).joined(separator: " ")
        }.sorted()
    }

    /// The numbers of a `* SEARCH` line.
    static func searched(_ output: String) -> [String] {
        output.split(separator: "\r\n").first { $0.hasPrefix("* SEARCH") }.map { $0.split(separator: " ").dropFirst(2).map(String.init) } ?? []
    }

    @Test("plain: list, UID SEARCH, fetch by UID and a section, upload to Sent, a missing UID, the other address's INBOX",
          arguments: IMAPServerUnderTest.tested)
    func plain(server: IMAPServerUnderTest) throws {
        let running = try server.start(seed: try IMAPSeed.make())
        defer { running.stop() }
        let base = "imap://\(running.host):\(running.port)"
        let user = ["--user", "\(IMAPSeed.ann):secret"]
        let list = try Tools.curl(user + ["\(base)/"])
        #expect(Self.folders(list.stdout) == ["Archive \\Archive", "Archive/2026", "Drafts \\Drafts", "INBOX", "Junk \\Junk", "Sent \\Sent", "Trash \\Trash"],
                "\(server): \(list)")
        let search = try Tools.curl(user + ["\(base)/INBOX", "-X", "UID SEARCH SUBJECT \"keys\""])
        let uids = Self.searched(search.stdout)
        #expect(uids.count == 1, "\(server): \(search)")
        let uid = try #require(uids.first)
        let message = try Tools.curl(user + ["\(base)/INBOX/;UID=\(uid)"])
        #expect(message.stdout == IMAPSeed.urgent, "\(server): \(message)")
        let header = try Tools.curl(user + ["\(base)/INBOX/;UID=\(uid);SECTION=HEADER.FIELDS%20(SUBJECT)"])
        #expect(header.stdout == "Subject: Urgent: keys\r\n\r\n", "\(server): \(header)")
        let unseen = try Tools.curl(user + ["\(base)/INBOX", "-X", "SEARCH UNSEEN"])
        #expect(Self.searched(unseen.stdout) == ["2", "7", "8"], "\(server): \(unseen)")
        let upload = "From: Ann <ann@example.com>\r\nTo: bob@example.com\r\nSubject: Uploaded by curl\r\n\r\nAPPENDed.\r\n"
        // From a file: curl must know the size for APPEND's literal (from standard input it gives up).
        let file = try Tools.temporaryDirectory().appendingPathComponent("upload.eml")
        try Data(upload.utf8).write(to: file)
        let appended = try Tools.curl(user + ["-T", file.path, "\(base)/Sent"])
        #expect(appended.status == 0, "\(server): \(appended)")
        let status = try Tools.curl(user + ["\(base)/Sent", "-X", "STATUS Sent (MESSAGES)"])
        #expect(status.stdout.contains("(MESSAGES 2)"), "\(server): \(status)")
        let found = Self.searched(try Tools.curl(user + ["\(base)/Sent", "-X", "UID SEARCH SUBJECT \"Uploaded\""]).stdout)
        let stored = try Tools.curl(user + ["\(base)/Sent/;UID=\(found.first ?? "0")"])
        #expect(stored.stdout == upload, "\(server): \(stored)")
        let missing = try Tools.curl(user + ["\(base)/INBOX/;UID=4000000"])
        #expect(missing.status == 78, "\(server): \(missing)")
        // The other address sees its own INBOX only.
        let bob = try Tools.curl(["--user", "\(IMAPSeed.bob):secret", "\(base)/INBOX", "-X", "SEARCH ALL"])
        #expect(Self.searched(bob.stdout) == ["1"], "\(server): \(bob)")
        let hello = try Tools.curl(["--user", "\(IMAPSeed.bob):secret", "\(base)/INBOX/;MAILINDEX=1;SECTION=HEADER.FIELDS%20(SUBJECT)"])
        #expect(hello.stdout == "Subject: Hello Bob\r\n\r\n", "\(server): \(hello)")
    }

    @Test("STARTTLS (--ssl-reqd) and imaps with the test CA; a wrong password and TLS-required-but-plain are refused (67)",
          arguments: IMAPServerUnderTest.tested, [TLSSettings.Mode.explicit, .implicit])
    func tls(server: IMAPServerUnderTest, mode: TLSSettings.Mode) throws {
        let running = try server.start(seed: try IMAPSeed.make(), tls: mode, users: [IMAPSeed.ann: "secret"], tlsRequired: mode == .explicit)
        defer { running.stop() }
        let ca = try #require(running.caFile)
        let base = mode == .explicit ? "imap://\(running.tlsHost):\(running.port)" : "imaps://\(running.tlsHost):\(try #require(running.tlsPort))"
        let secure = ["--cacert", ca] + (mode == .explicit ? ["--ssl-reqd"] : [])
        let message = try Tools.curl(secure + ["--user", "\(IMAPSeed.ann):secret", "\(base)/Archive%2F2026/;UID=1"])
        #expect(message.stdout == IMAPSeed.messages(of: IMAPSeed.ann, in: "Archive/2026")[0].raw, "\(server): \(message)")
        let wrong = try Tools.curl(secure + ["--user", "\(IMAPSeed.ann):wrong", "\(base)/"])
        #expect(wrong.status == 67, "\(server): \(wrong)")
        if mode == .explicit {
            let plain = try Tools.curl(["--user", "\(IMAPSeed.ann):secret", "imap://\(running.host):\(running.port)/"])
            #expect(plain.status == 67, "\(server): \(plain)")
        }
    }
}
