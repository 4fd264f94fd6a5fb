import Foundation
import MockServerMail
import Testing
import TestSupport

/// Seeds: a Maildir (flags, Maildir++ folders) and a tree of `.eml` files, read without writing,
/// bad input named by its path, and reset back to them.
@Suite("Mail seeds", .offPool)
struct MailSeedTests {
    static let fixtures = Tools.repositoryRoot.appendingPathComponent("Tests/MockServerMailTests/Fixtures/mailbox")

    /// Every file and folder under `root` with its bytes and modification time.
    static func snapshot(_ root: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        let enumerator = try #require(FileManager.default.enumerator(atPath: root.path))
        while let path = enumerator.nextObject() as? String {
            let url = root.appendingPathComponent(path)
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            let bytes = (try? Data(contentsOf: url)).map { $0.base64EncodedString() } ?? "folder"
            result[path] = "\(modified) \(bytes)"
        }
        return result
    }

    @Test("a Maildir: cur and new in name order, flags from :2, (none in new/), Maildir++ .Archive.2026 as Archive/2026")
    func maildir() throws {
        let seed = try MailSeed(directory: Self.fixtures.appendingPathComponent("maildir"))
        let store = MailStore(seed: seed)
        let dana = "dana@example.net"
        #expect(store.folders(of: dana) == ["INBOX", "Archive/2026"])
        let inbox = store.messages(of: dana)
        #expect(inbox.map(\.transaction.message.subject) == ["Your order shipped", "Lunch?", "New statement"])
        #expect(inbox.map(\.flags) == [[.seen], [.flagged, .answered, .seen], []])
        #expect(inbox.map(\.uid) == [1, 2, 3])
        #expect(inbox[0].transaction.time == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(inbox[0].transaction.envelope.sender == "orders@shop.example")
        #expect(inbox[0].transaction.envelope.recipients == [dana])
        guard case .seed(let path) = inbox[0].transaction.envelope.origin else { Issue.record("not a seed origin"); return }
        #expect(path.hasSuffix("cur/1700000000.M1P1.host:2,S"))
        let archive = store.messages(of: dana, folder: "Archive/2026")
        #expect(archive.map(\.transaction.message.subject) == ["Archived note"])
        #expect(archive.first?.flags == [.seen, .deleted])
        #expect(store.transactions.count == 4)
    }

    @Test("symbolic links are skipped: a linked message file, a linked folder, a linked address")
    func symbolicLinks() throws {
        let root = try Tools.temporaryDirectory().appendingPathComponent("seed")
        let outside = try Tools.temporaryDirectory()
        try Data("Subject: secret\r\n\r\nx\r\n".utf8).write(to: outside.appendingPathComponent("secret.eml"))
        let inbox = root.appendingPathComponent("ann@example.com/cur")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        try Data("Subject: kept\r\n\r\nx\r\n".utf8).write(to: inbox.appendingPathComponent("1.M1.host:2,S"))
        try FileManager.default.createSymbolicLink(at: inbox.appendingPathComponent("2.M2.host:2,S"), withDestinationURL: outside.appendingPathComponent("secret.eml"))
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("ann@example.com/.Linked"), withDestinationURL: outside)
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("bob@example.com"), withDestinationURL: outside)
        let store = MailStore(seed: try MailSeed(directory: root))
        #expect(store.messages(of: "ann@example.com").map(\.transaction.message.subject) == ["kept"])
        #expect(store.folders(of: "ann@example.com") == ["INBOX"])
        #expect(store.addresses.map(\.text) == ["ann@example.com"])
    }

    @Test("a Maildir's keywords: lowercase letters of the :2, suffix as its dovecot-keywords names them, unnamed ones left out")
    func keywords() throws {
        let root = try Tools.temporaryDirectory().appendingPathComponent("seed")
        let maildir = root.appendingPathComponent("ann@example.com")
        try FileManager.default.createDirectory(at: maildir.appendingPathComponent("cur"), withIntermediateDirectories: true)
        try Data("0 $Junk\n1 work\nbad line\n30 outofrange\n".utf8).write(to: maildir.appendingPathComponent("dovecot-keywords"))
        try Data("Subject: a\r\n\r\nx\r\n".utf8).write(to: maildir.appendingPathComponent("cur/1.M1.host:2,Sba"))
        try Data("Subject: b\r\n\r\nx\r\n".utf8).write(to: maildir.appendingPathComponent("cur/2.M2.host:2,c"))
        let store = MailStore(seed: try MailSeed(directory: root))
        let inbox = store.messages(of: "ann@example.com")
        #expect(inbox.map(\.keywords) == [["$Junk", "work"], []])
        #expect(inbox.map(\.flags) == [.seen, []])
        #expect(store.folder(of: "ann@example.com")?.keywords == ["$Junk", "work"])
    }

    @Test("a folder of .eml files: subfolders are folders, other files skipped")
    func eml() throws {
        let store = MailStore(seed: try MailSeed(directory: Self.fixtures.appendingPathComponent("eml")))
        let lee = "lee@EXAMPLE.org"
        #expect(store.folders(of: lee) == ["INBOX", "Archive", "Archive/2026"])
        #expect(store.messages(of: lee).map(\.transaction.message.subject) == ["Welcome"])
        #expect(store.messages(of: lee, folder: "Archive").map(\.transaction.message.subject) == ["Old thread"])
        #expect(store.messages(of: lee, folder: "archive/2026").isEmpty)
        #expect(store.messages(of: lee, folder: "Archive/2026").map(\.transaction.message.subject) == ["This year"])
        #expect(store.messages(of: lee, folder: "inbox").map(\.flags) == [[]])
    }

    @Test("reset goes back to the seed after deliveries, flag changes and purges; the seed is never written")
    func resetAndReadOnly() throws {
        let root = Self.fixtures
        let before = try Self.snapshot(root)
        #expect(before.count > 10)
        let store = MailStore(seed: try MailSeed(directory: root.appendingPathComponent("maildir")))
        store.deliver(Data("Subject: new\r\n\r\nx\r\n".utf8),
                      envelope: MailEnvelope(sender: "a@b.example", recipients: ["dana@example.net"],
                                             origin: .smtp(heloName: "h", client: nil, security: .plain, user: nil)))
        store.updateFlags(uid: 3, of: "dana@example.net") { $0.insert(.deleted) }
        store.expunge(of: "dana@example.net")
        store.purge(address: "dana@example.net")
        #expect(store.transactions.isEmpty)
        store.reset()
        let inbox = store.messages(of: "dana@example.net")
        #expect(inbox.map(\.transaction.message.subject) == ["Your order shipped", "Lunch?", "New statement"])
        #expect(inbox.map(\.flags) == [[.seen], [.flagged, .answered, .seen], []])
        // New UIDs after the old ones, the same UIDVALIDITY.
        #expect(inbox.map(\.uid) == [5, 6, 7])
        #expect(store.transactions.count == 4)
        _ = try MailSeed(directory: root.appendingPathComponent("eml"))
        #expect(try Self.snapshot(root) == before)
    }

    @Test("bad input names its path: a folder not named as an address, an unreadable file (a socket), a seed that is no folder")
    func badInput() throws {
        let root = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let notAnAddress = root.appendingPathComponent("not-an-address")
        try FileManager.default.createDirectory(at: notAnAddress, withIntermediateDirectories: true)
        #expect(throws: MailSeedError.notAnAddress(path: notAnAddress.path)) { try MailSeed(directory: root) }
        try FileManager.default.removeItem(at: notAnAddress)

        let mailbox = root.appendingPathComponent("dana@example.net")
        try FileManager.default.createDirectory(at: mailbox, withIntermediateDirectories: true)
        let socket = mailbox.appendingPathComponent("socket.eml")
        _ = try Tools.python("import socket\nsocket.socket(socket.AF_UNIX).bind('\(socket.path)')")
        do {
            _ = try MailSeed(directory: root)
            Issue.record("a socket was read as an .eml")
        } catch {
            guard case .unreadable(let path, _) = error else { Issue.record("\(error)"); return }
            #expect(path == socket.path)
            #expect(error.description.hasPrefix(socket.path + ": cannot be read"))
        }
        try FileManager.default.removeItem(at: socket)
        #expect(try MailSeed(directory: root).folders[MailboxAddress("dana@example.net")] == ["INBOX"])

        let file = root.appendingPathComponent("file")
        try Data().write(to: file)
        #expect(throws: MailSeedError.notAFolder(path: file.path)) { try MailSeed(directory: file) }
    }
}
