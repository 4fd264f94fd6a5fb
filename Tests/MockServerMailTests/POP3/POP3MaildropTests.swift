import Foundation
import MockServerMail
import Testing

/// The maildrop: deletions applied at QUIT and only then, unique IDs stable across sessions.
@Suite("POP3 maildrop")
struct POP3MaildropTests {
    @Test("DELE is applied at QUIT: the store loses exactly the marked messages")
    func deleteAtQuit() {
        let store = popStore(3)
        var dialogue = POP3TestDialogue(store: store)
        dialogue.send("USER dana@example.net\r\nPASS x\r\nDELE 1\r\nDELE 3\r\n")
        #expect(store.messages(of: "dana@example.net").count == 3, "nothing leaves before QUIT")
        #expect(dialogue.send("QUIT\r\n") == "+OK Logging out, messages deleted.\r\n")
        #expect(dialogue.closed == "QUIT")
        #expect(store.messages(of: "dana@example.net").map(\.uid) == [2])
        #expect(store.messages(of: "lee@example.org").count == 1)
    }

    @Test("a connection that ends or drops without QUIT deletes nothing", arguments: [true, false])
    func noQuitNoDelete(endsInput: Bool) {
        let store = popStore()
        var dialogue = POP3TestDialogue(store: store)
        dialogue.send("USER dana@example.net\r\nPASS x\r\nDELE 1\r\nDELE 2\r\n")
        if endsInput { dialogue.end() }
        #expect(store.messages(of: "dana@example.net").count == 2)
    }

    @Test("RSET then QUIT deletes nothing")
    func resetThenQuit() {
        let store = popStore()
        var dialogue = POP3TestDialogue(store: store)
        #expect(dialogue.send("USER dana@example.net\r\nPASS x\r\nDELE 1\r\nRSET\r\nQUIT\r\n").hasSuffix("+OK\r\n+OK Logging out.\r\n"))
        #expect(store.messages(of: "dana@example.net").count == 2)
    }

    @Test("QUIT flags the messages RETR sent \\Seen, as Dovecot does; TOP does not, nor a session without QUIT")
    func seenAtQuit() {
        let store = popStore(3)
        var dropped = POP3TestDialogue(store: store)
        dropped.send("USER dana@example.net\r\nPASS x\r\nRETR 1\r\n")
        dropped.end()
        #expect(store.messages(of: "dana@example.net").allSatisfy { !$0.flags.contains(.seen) })
        var dialogue = POP3TestDialogue(store: store)
        dialogue.send("USER dana@example.net\r\nPASS x\r\nRETR 1\r\nTOP 2 1\r\nRETR 3\r\nDELE 3\r\nQUIT\r\n")
        #expect(store.messages(of: "dana@example.net").map { "\($0.uid)\($0.flags.contains(.seen))" } == ["1true", "2false"])
    }

    @Test("UIDL is stable across sessions: a message keeps its ID when others go or come")
    func stableUIDL() {
        let store = popStore(3)
        var first = POP3TestDialogue(store: store)
        first.send("USER dana@example.net\r\nPASS x\r\n")
        let before = first.send("UIDL\r\n")
        #expect(before == "+OK\r\n1 0000000165a1f2c0\r\n2 0000000265a1f2c0\r\n3 0000000365a1f2c0\r\n.\r\n")
        first.send("DELE 1\r\nQUIT\r\n")
        store.deliver(Data("Subject: New\r\n\r\nNew.\r\n".utf8),
                      envelope: MailEnvelope(sender: "", recipients: ["dana@example.net"], origin: .seed(path: "new.eml")))
        var second = POP3TestDialogue(store: store)
        second.send("USER dana@example.net\r\nPASS x\r\n")
        #expect(second.send("UIDL\r\n") == "+OK\r\n1 0000000265a1f2c0\r\n2 0000000365a1f2c0\r\n3 0000000465a1f2c0\r\n.\r\n")
        // The same message, renumbered, has the ID it had.
        #expect(second.send("UIDL 1\r\n") == "+OK 1 0000000265a1f2c0\r\n")
    }

    @Test("another folder's UIDVALIDITY makes other IDs: each address's INBOX has its own")
    func uidValidityPerFolder() {
        let store = popStore(1)
        var lee = POP3TestDialogue(store: store)
        lee.send("USER lee@example.org\r\nPASS x\r\n")
        let leeID = lee.send("UIDL 1\r\n")
        var dana = POP3TestDialogue(store: store)
        dana.send("USER dana@example.net\r\nPASS x\r\n")
        #expect(leeID != dana.send("UIDL 1\r\n"))
        #expect(leeID.count == "+OK 1 0000000165a1f2c1\r\n".count)
    }

    @Test("UPDATE removes only what this session marked, not a message IMAP flagged \\Deleted, and skips one already gone")
    func updateRemovesOnlyMarked() {
        let store = popStore(3)
        store.updateFlags(uid: 3, of: "dana@example.net") { $0.insert(.deleted) }
        var first = POP3TestDialogue(store: store), second = POP3TestDialogue(store: store)
        first.send("USER dana@example.net\r\nPASS x\r\n")
        second.send("USER dana@example.net\r\nPASS x\r\n")
        first.send("DELE 1\r\nQUIT\r\n")
        #expect(second.send("DELE 1\r\nDELE 2\r\nQUIT\r\n").hasSuffix("+OK Logging out, messages deleted.\r\n"))
        #expect(store.messages(of: "dana@example.net").map(\.uid) == [3])
    }

    @Test("MailStore.remove(uids:) removes those entries, skips absent UIDs, and forgets a transaction left nowhere")
    func storeRemove() {
        let store = popStore(2)
        #expect(store.transactions.count == 3)
        #expect(store.remove(uids: [2, 7], of: "dana@example.net") == [2])
        #expect(store.messages(of: "dana@example.net").map(\.uid) == [1])
        #expect(store.transactions.count == 2)
        #expect(store.remove(uids: [], of: "dana@example.net") == [])
        #expect(store.remove(uids: [1], of: "nobody@example.net") == [])
    }
}
