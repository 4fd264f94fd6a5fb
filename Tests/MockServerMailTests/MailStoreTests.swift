import Foundation
import MockServerMail
import Testing

/// The mailbox: one record per SMTP transaction, an entry per recipient with its own UID and flags,
/// purges, and the byte bound.
@Suite("Mail store")
struct MailStoreTests {
    static func message(_ subject: String, from: String = "app@shop.example", to: String = "dana@example.net", body: String = "Hello.") -> Data {
        Data("From: \(from)\r\nTo: \(to)\r\nSubject: \(subject)\r\n\r\n\(body)\r\n".utf8)
    }

    static func envelope(from: String = "app@shop.example", to recipients: [String]) -> MailEnvelope {
        MailEnvelope(sender: from, recipients: recipients,
                     origin: .smtp(heloName: "client.example", client: nil, security: .startTLS, user: "app"))
    }

    @Test("one transaction to three recipients is one record, in each recipient's INBOX, the envelope kept")
    func severalRecipients() throws {
        let store = MailStore()
        let raw = Self.message("Reset", to: "dana@example.net")
        let transaction = store.deliver(raw, envelope: Self.envelope(to: ["dana@example.net", "Lee@Example.ORG", "bcc@example.com"]))
        #expect(store.transactions.count == 1)
        #expect(store.transaction(id: transaction.id) === transaction)
        #expect(transaction.raw == raw)
        #expect(transaction.message.subject == "Reset")
        for address in ["dana@example.net", "Lee@example.org", "Lee@EXAMPLE.ORG", "bcc@EXAMPLE.com"] {
            let entries = store.messages(of: address)
            #expect(entries.count == 1, "\(address)")
            #expect(entries.first?.transaction === transaction)
        }
        // The local part is as given: `LEE@` is another mailbox than `Lee@`.
        #expect(store.messages(of: "LEE@example.org").isEmpty)
        #expect(transaction.blindCopies == ["Lee@Example.ORG", "bcc@example.com"])
        guard case .smtp(let helo, _, let security, let user) = transaction.envelope.origin else { Issue.record("not an SMTP origin"); return }
        #expect(helo == "client.example" && security == .startTLS && security.isEncrypted && user == "app")
        #expect(store.addresses.map(\.text) == ["Lee@Example.ORG", "bcc@example.com", "dana@example.net"])
    }

    @Test("a recipient named twice gets one entry")
    func duplicateRecipient() {
        let store = MailStore()
        store.deliver(Self.message("Twice"), envelope: Self.envelope(to: ["dana@example.net", "dana@EXAMPLE.net"]))
        #expect(store.messages(of: "dana@example.net").count == 1)
    }

    @Test("IDs are 22 letters and digits, unique")
    func ids() {
        let ids = (0..<1_000).map { _ in MailTransaction.makeID() }
        #expect(Set(ids).count == 1_000)
        #expect(ids.allSatisfy { $0.count == 22 && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } })
    }

    @Test("UIDs grow per folder and are never reused, through expunge and purge; flags are per entry")
    func uidsAndFlags() throws {
        let store = MailStore(uidValidity: 1_000)
        let shared = store.deliver(Self.message("One"), envelope: Self.envelope(to: ["dana@example.net", "lee@example.org"]))
        store.deliver(Self.message("Two"), envelope: Self.envelope(to: ["dana@example.net"]))
        store.deliver(Self.message("Three"), envelope: Self.envelope(to: ["dana@example.net"]))
        #expect(store.messages(of: "dana@example.net").map(\.uid) == [1, 2, 3])
        #expect(store.messages(of: "lee@example.org").map(\.uid) == [1])
        let dana = try #require(store.folder(of: "dana@example.net")), lee = try #require(store.folder(of: "lee@example.org"))
        #expect(dana.uidValidity != lee.uidValidity)
        #expect(Set([dana.uidValidity, lee.uidValidity]) == [1_000, 1_001])

        // Dana reads and deletes the shared message; Lee's copy stays unread.
        #expect(store.updateFlags(uid: 1, of: "dana@example.net") { $0.insert([.seen, .deleted]) })
        #expect(store.updateFlags(uid: 2, of: "dana@example.net") { $0.insert(.flagged) })
        #expect(!store.updateFlags(uid: 9, of: "dana@example.net") { $0.insert(.seen) })
        #expect(store.messages(of: "lee@example.org").first?.flags == [])
        #expect(store.expunge(of: "dana@example.net") == [1])
        #expect(store.messages(of: "dana@example.net").map(\.uid) == [2, 3])
        #expect(store.messages(of: "dana@example.net").first?.flags == .flagged)
        // Still Lee's: the record stays.
        #expect(store.transaction(id: shared.id) === shared)
        #expect(store.expunge(of: "lee@example.org") == [])

        store.purge()
        #expect(store.transactions.isEmpty && store.byteCount == 0)
        store.deliver(Self.message("Four"), envelope: Self.envelope(to: ["dana@example.net"]))
        #expect(store.messages(of: "dana@example.net").map(\.uid) == [4])
        #expect(store.folder(of: "dana@example.net")?.uidValidity == dana.uidValidity)
        #expect(store.folder(of: "dana@example.net")?.nextUID == 5)
    }

    @Test("purging one address leaves the others' copies, and a record goes when no copy is left")
    func purgeOneAddress() {
        let store = MailStore()
        let shared = store.deliver(Self.message("Both"), envelope: Self.envelope(to: ["dana@example.net", "lee@example.org"]))
        let danaOnly = store.deliver(Self.message("Dana"), envelope: Self.envelope(to: ["dana@example.net"]))
        store.purge(address: "dana@EXAMPLE.NET")
        #expect(store.messages(of: "dana@example.net").isEmpty)
        #expect(store.messages(of: "lee@example.org").map(\.transaction.id) == [shared.id])
        #expect(store.transactions.map(\.id) == [shared.id])
        #expect(store.transaction(id: danaOnly.id) == nil)
        #expect(store.byteCount == shared.size)
    }

    @Test("removing transactions by ID takes them from every folder and the byte count; unknown IDs are skipped")
    func removeByID() {
        let store = MailStore()
        let shared = store.deliver(Self.message("Both"), envelope: Self.envelope(to: ["dana@example.net", "lee@example.org"]))
        let danaOnly = store.deliver(Self.message("Dana"), envelope: Self.envelope(to: ["dana@example.net"]))
        let leeOnly = store.deliver(Self.message("Lee"), envelope: Self.envelope(to: ["lee@example.org"]))
        #expect(store.remove(ids: ["nope", shared.id, danaOnly.id, shared.id]) == [shared.id, danaOnly.id])
        #expect(store.transactions.map(\.id) == [leeOnly.id])
        #expect(store.messages(of: "dana@example.net").isEmpty)
        #expect(store.messages(of: "lee@example.org").map(\.transaction.id) == [leeOnly.id])
        #expect(store.transaction(id: shared.id) == nil)
        #expect(store.byteCount == leeOnly.size)
        #expect(store.remove(ids: []) == [])
    }

    @Test("past the byte limit the oldest transactions go, from every folder; the newest stays whatever its size")
    func byteBound() {
        let body = String(repeating: "x", count: 1_000)
        let size = Self.message("0", body: body).count
        let store = MailStore(byteLimit: size * 3)
        for index in 0..<10 {
            store.deliver(Self.message("\(index)", body: body), envelope: Self.envelope(to: ["dana@example.net", "lee@example.org"]))
        }
        #expect(store.transactions.map(\.message.subject) == ["7", "8", "9"])
        #expect(store.messages(of: "lee@example.org").map(\.uid) == [8, 9, 10])
        #expect(store.byteCount == size * 3)
        #expect(store.droppedCount == 7)
        let huge = store.deliver(Self.message("huge", body: String(repeating: "y", count: size * 5)), envelope: Self.envelope(to: ["dana@example.net"]))
        #expect(store.transactions.map(\.id) == [huge.id])
        #expect(store.messages(of: "lee@example.org").isEmpty)
        #expect(MailStore.defaultByteLimit == 64 << 20)
    }

    @Test("addresses compare with the domain in any case and the local part as given")
    func addresses() {
        #expect(MailboxAddress("Dana@Example.NET") == MailboxAddress("<Dana@example.net>"))
        #expect(MailboxAddress("dana@example.net") != MailboxAddress("Dana@example.net"))
        #expect(MailboxAddress(" <a@b.example> ").text == "a@b.example")
        #expect(MailboxAddress("a@b.example").isAddress)
        #expect(!MailboxAddress("bob").isAddress)
        #expect(!MailboxAddress("@b.example").isAddress)
        #expect(!MailboxAddress("a@").isAddress)
        #expect(!MailboxAddress("a b@c.example").isAddress)
    }

    @Test("Maildir flag letters read and write in order")
    func maildirFlags() {
        #expect(MailFlags(maildirName: "1700000000.M1P1.host:2,FRS") == [.flagged, .answered, .seen])
        #expect(MailFlags(maildirName: "1700000000.M1P1.host:2,DPTa") == [.draft, .passed, .deleted])
        #expect(MailFlags(maildirName: "1700000000.M1P1.host") == [])
        #expect(MailFlags([.seen, .draft, .flagged]).maildirLetters == "DFS")
        #expect(MailFlags([.seen, .deleted]).imapNames == ["\\Seen", "\\Deleted"])
    }
}
