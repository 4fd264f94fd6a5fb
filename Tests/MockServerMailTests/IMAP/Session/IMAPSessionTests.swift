import Foundation
import MockServerMail
import Testing

/// The IMAP session's states and commands (RFC 9051), driven without a socket.
@Suite("IMAP session")
struct IMAPSessionTests {
    @Test("the greeting lists capabilities; before login only the login commands and those of any state work")
    func notAuthenticated() {
        var dialogue = IMAPTestDialogue(store: MailStore())
        let greeting = dialogue.start()
        #expect(greeting.hasPrefix("* OK [CAPABILITY IMAP4rev1 IMAP4rev2 "))
        #expect(greeting.contains("AUTH=PLAIN") && !greeting.contains("UIDPLUS"))
        #expect(dialogue.send("a SELECT INBOX\r\n") == "a BAD Please login first.\r\n")
        #expect(dialogue.send("b FROB\r\n") == "b BAD Unknown command FROB.\r\n")
        #expect(dialogue.send("c NOOP\r\n") == "c OK NOOP completed.\r\n")
        #expect(dialogue.send("d LOGOUT\r\n") == "* BYE Logging out\r\nd OK Logout completed.\r\n")
        #expect(dialogue.closed == "LOGOUT")
    }

    @Test("LOGIN with a known account; a wrong password is AUTHENTICATIONFAILED; the transcript masks the password")
    func login() {
        let store = MailStore(users: MailUsers(arguments: ["alice@example.com:right"])!)
        var dialogue = IMAPTestDialogue(store: store)
        _ = dialogue.start()
        #expect(dialogue.send("a LOGIN alice@example.com wrong\r\n") == "a NO [AUTHENTICATIONFAILED] Authentication failed.\r\n")
        let answer = dialogue.send("b LOGIN \"alice@example.com\" {5}\r\n")
        #expect(answer == "+ Ready for literal data\r\n")
        #expect(dialogue.send("right\r\n").hasPrefix("b OK [CAPABILITY IMAP4rev1 IMAP4rev2 "))
        #expect(dialogue.recorded.last == "b LOGIN \"alice@example.com\" ***")
        #expect(dialogue.send("c LOGIN x y\r\n") == "c BAD Already logged in.\r\n")
    }

    @Test("AUTHENTICATE PLAIN with an initial response, and with a challenge; * cancels")
    func authenticate() {
        let plain = Data("\0alice@example.com\0pw".utf8).base64EncodedString()
        var dialogue = IMAPTestDialogue(store: MailStore())
        _ = dialogue.start()
        #expect(dialogue.send("a AUTHENTICATE PLAIN\r\n") == "+ \r\n")
        #expect(dialogue.send("*\r\n") == "a BAD Authentication aborted by client.\r\n")
        #expect(dialogue.send("b AUTHENTICATE PLAIN \(plain)\r\n").hasPrefix("b OK [CAPABILITY"))
        #expect(dialogue.session.address?.text == "alice@example.com")
    }

    @Test("TLS required: LOGINDISABLED before STARTTLS, logins refused; after it, AUTH= offered")
    func startTLS() {
        var dialogue = IMAPTestDialogue(store: MailStore(), settings: IMAPSettings(tls: .required))
        let greeting = dialogue.start()
        #expect(greeting.contains("STARTTLS") && greeting.contains("LOGINDISABLED") && !greeting.contains("AUTH=PLAIN"))
        #expect(dialogue.send("a LOGIN u p\r\n").hasPrefix("a NO [PRIVACYREQUIRED]"))
        #expect(dialogue.send("b STARTTLS\r\nc NOOP\r\n") == "b OK Begin TLS negotiation now.\r\n")
        #expect(dialogue.tlsStarts == 1)
        let capabilities = dialogue.send("d CAPABILITY\r\n")
        #expect(capabilities.contains("AUTH=PLAIN") && !capabilities.contains("STARTTLS") && !capabilities.contains("LOGINDISABLED"))
    }

    @Test("SELECT tells FLAGS, EXISTS, RECENT, UNSEEN, UIDVALIDITY, UIDNEXT, HIGHESTMODSEQ; EXAMINE is read-only")
    func select() {
        let store = MailStore.withInbox(3)
        var dialogue = IMAPTestDialogue.loggedIn(store)
        let answer = dialogue.send("a SELECT inbox\r\n")
        #expect(answer.contains("* 3 EXISTS\r\n* 3 RECENT\r\n* OK [UNSEEN 2] First unseen.\r\n* OK [UIDVALIDITY 1000] UIDs valid\r\n* OK [UIDNEXT 4] Predicted next UID\r\n"))
        #expect(answer.hasSuffix("a OK [READ-WRITE] Select completed.\r\n"))
        // Another session sees none recent: the first took them.
        var other = IMAPTestDialogue.loggedIn(store)
        let examined = other.send("b EXAMINE INBOX\r\n")
        #expect(examined.contains("* 0 RECENT\r\n") && examined.hasSuffix("b OK [READ-ONLY] Examine completed.\r\n"))
        #expect(other.send("c STORE 1 +FLAGS (\\Deleted)\r\n") == "c NO [READ-ONLY] Mailbox is read-only.\r\n")
        #expect(dialogue.send("d SELECT Nowhere\r\n") == "d NO [NONEXISTENT] Mailbox doesn't exist: Nowhere\r\n")
        #expect(dialogue.send("e NOOP\r\n") == "e OK NOOP completed.\r\n")
        #expect(dialogue.send("f EXPUNGE\r\n") == "f BAD No mailbox selected.\r\n")
    }

    @Test("STORE answers the new flags; .SILENT does not; a sequence number past the count is BAD; keywords join FLAGS")
    func store() {
        var dialogue = IMAPTestDialogue.loggedIn(MailStore.withInbox(2))
        _ = dialogue.send("a SELECT INBOX\r\n")
        #expect(dialogue.send("b STORE 1:2 +FLAGS (\\Flagged)\r\n")
            == "* 1 FETCH (FLAGS (\\Seen \\Flagged \\Recent))\r\n* 2 FETCH (FLAGS (\\Flagged \\Recent))\r\nb OK Store completed.\r\n")
        #expect(dialogue.send("c STORE 2 -FLAGS.SILENT (\\Flagged)\r\n") == "c OK Store completed.\r\n")
        #expect(dialogue.send("d STORE 3 +FLAGS (\\Seen)\r\n") == "d BAD Error in IMAP command: Invalid messageset: message 3 of 2.\r\n")
        #expect(dialogue.send("e STORE 4294967296 +FLAGS (\\Seen)\r\n").hasPrefix("e BAD Invalid sequence set"))
        #expect(dialogue.send("f UID STORE 2 +FLAGS (work)\r\n")
            == "* 2 FETCH (UID 2 FLAGS (work \\Recent))\r\n* FLAGS (\\Answered \\Flagged \\Deleted \\Seen \\Draft $Forwarded work)\r\nf OK Store completed.\r\n")
        #expect(dialogue.send("g STORE 1 +FLAGS (\\Recent)\r\n") == "g BAD Invalid flag \\Recent.\r\n")
    }

    @Test("another session's STORE, EXPUNGE and a delivery reach this one with its next command, EXPUNGE not during FETCH")
    func sessionsSeeEachOther() {
        let store = MailStore.withInbox(3)
        var first = IMAPTestDialogue.loggedIn(store), second = IMAPTestDialogue.loggedIn(store)
        _ = first.send("a SELECT INBOX\r\n")
        _ = second.send("a SELECT INBOX\r\n")
        _ = second.send("b STORE 2 +FLAGS.SILENT (\\Deleted \\Flagged)\r\n")
        _ = second.send("c EXPUNGE\r\n")
        store.deliver(Data("Subject: new\r\n\r\nx\r\n".utf8), envelope: MailEnvelope(sender: "", recipients: ["alice@example.com"], origin: .seed(path: "t")))
        // STORE may not tell of the expunge: the message stays numbered 2 for now.
        let during = first.send("d STORE 3 +FLAGS.SILENT (\\Seen)\r\n")
        #expect(!during.contains("EXPUNGE") && during.contains("* 4 EXISTS\r\n"))
        let after = first.send("e NOOP\r\n")
        #expect(after == "* 2 EXPUNGE\r\ne OK NOOP completed.\r\n")
        // The second session heard of its own expunge already; it hears of the first's \Seen and the delivery.
        #expect(second.send("f NOOP\r\n") == "* 2 FETCH (FLAGS (\\Seen))\r\n* 3 EXISTS\r\n* 1 RECENT\r\nf OK NOOP completed.\r\n")
    }

    @Test("IDLE: a delivery is told at once; DONE ends it; anything else is BAD")
    func idle() {
        let store = MailStore.withInbox(1)
        var dialogue = IMAPTestDialogue.loggedIn(store)
        _ = dialogue.send("a SELECT INBOX\r\n")
        #expect(dialogue.send("b IDLE\r\n") == "+ idling\r\n")
        #expect(dialogue.changed() == "")
        store.deliver(Data("Subject: new\r\n\r\nx\r\n".utf8), envelope: MailEnvelope(sender: "", recipients: ["alice@example.com"], origin: .seed(path: "t")))
        // Both are recent to this session: the first since its SELECT, the new one as it came.
        #expect(dialogue.changed() == "* 2 EXISTS\r\n* 2 RECENT\r\n")
        #expect(dialogue.send("DONE\r\n") == "b OK Idle completed.\r\n")
        _ = dialogue.send("c IDLE\r\n")
        #expect(dialogue.send("NOPE\r\n") == "c BAD Expected DONE.\r\n")
    }

    @Test("a UIDVALIDITY change says BYE to the sessions that have the folder selected")
    func uidValidityChange() {
        let store = MailStore.withInbox(2)
        var dialogue = IMAPTestDialogue.loggedIn(store)
        _ = dialogue.send("a SELECT INBOX\r\n")
        let validity = store.changeUIDValidity(folder: "INBOX", of: "alice@example.com")
        #expect(validity == 1001)
        #expect(dialogue.send("b NOOP\r\n") == "* BYE [UIDVALIDITY 1001] Mailbox UIDVALIDITY changed, reconnect.\r\n")
        #expect(dialogue.closed == "selected mailbox gone")
        #expect(store.messages(of: "alice@example.com").map(\.uid) == [1, 2])
    }

    @Test("CREATE, RENAME, DELETE, LIST with special use and children, LSUB, STATUS")
    func folders() {
        var dialogue = IMAPTestDialogue.loggedIn(MailStore.withInbox(2))
        #expect(dialogue.send("a CREATE Archive/2026\r\n") == "a OK Create completed.\r\n")
        #expect(dialogue.send("b CREATE Archive\r\n") == "b NO [ALREADYEXISTS] Mailbox Archive already exists.\r\n")
        #expect(dialogue.send("c CREATE Sent\r\n") == "c OK Create completed.\r\n")
        #expect(dialogue.send("d LIST \"\" *\r\n") == """
            * LIST (\\HasNoChildren) "/" INBOX\r
            * LIST (\\HasChildren \\Archive) "/" Archive\r
            * LIST (\\HasNoChildren) "/" Archive/2026\r
            * LIST (\\HasNoChildren \\Sent) "/" Sent\r
            d OK List completed.\r\n
            """)
        #expect(dialogue.send("e LIST \"\" %\r\n").contains("\"/\" Archive\r\n* LIST"))
        #expect(dialogue.send("f LIST \"\" \"\"\r\n") == "* LIST (\\Noselect) \"/\" \"\"\r\nf OK List completed.\r\n")
        #expect(dialogue.send("g DELETE Archive\r\n") == "g NO [INUSE] Mailbox Archive has children, delete them first.\r\n")
        #expect(dialogue.send("h RENAME Archive Old\r\n") == "h OK Rename completed.\r\n")
        #expect(dialogue.send("i LIST \"\" Old*\r\n") == "* LIST (\\HasChildren) \"/\" Old\r\n* LIST (\\HasNoChildren) \"/\" Old/2026\r\ni OK List completed.\r\n")
        #expect(dialogue.send("j DELETE INBOX\r\n") == "j NO [CANNOT] INBOX can't be deleted.\r\n")
        #expect(dialogue.send("k STATUS INBOX (MESSAGES UNSEEN UIDNEXT UIDVALIDITY)\r\n")
            == "* STATUS INBOX (MESSAGES 2 UNSEEN 1 UIDNEXT 3 UIDVALIDITY 1000)\r\nk OK Status completed.\r\n")
        #expect(dialogue.send("l SUBSCRIBE Old/2026\r\n") == "l OK Subscribe completed.\r\n")
        #expect(dialogue.send("m LSUB \"\" *\r\n") == "* LSUB (\\HasNoChildren) \"/\" INBOX\r\n* LSUB (\\HasNoChildren) \"/\" Old/2026\r\nm OK Lsub completed.\r\n")
        #expect(dialogue.send("n LIST (SUBSCRIBED) \"\" * RETURN (STATUS (MESSAGES))\r\n")
            == "* LIST (\\HasNoChildren \\Subscribed) \"/\" INBOX\r\n* STATUS INBOX (MESSAGES 2)\r\n* LIST (\\HasNoChildren \\Subscribed) \"/\" Old/2026\r\n* STATUS Old/2026 (MESSAGES 0)\r\nn OK List completed.\r\n")
        #expect(dialogue.send("o CREATE ../etc\r\n").hasPrefix("o NO [CANNOT] Invalid mailbox name"))
        #expect(dialogue.send("p CREATE &Jjo-\r\n") == "p OK Create completed.\r\n")
        #expect(dialogue.send("q LIST \"\" &Jjo-\r\n") == "* LIST (\\HasNoChildren) \"/\" &Jjo-\r\nq OK List completed.\r\n")
        #expect(dialogue.send("r CREATE &Jjo\r\n").hasPrefix("r NO [CANNOT] Invalid mailbox name"))
    }

    @Test("APPEND with flags and date gives APPENDUID; to a missing folder TRYCREATE; COPY and MOVE give COPYUID")
    func appendCopyMove() {
        let store = MailStore.withInbox(2)
        var dialogue = IMAPTestDialogue.loggedIn(store)
        #expect(dialogue.send("a APPEND Nowhere {3+}\r\nx\r\n\r\n") == "a NO [TRYCREATE] Mailbox doesn't exist: Nowhere\r\n")
        _ = dialogue.send("b CREATE Sent\r\n")
        let validity = store.folder("Sent", of: "alice@example.com")!.uidValidity
        #expect(dialogue.send("c APPEND Sent (\\Seen $Work) \" 7-Feb-2026 10:11:12 +0100\" {14+}\r\nSubject: a\r\n\r\n\r\n")
            == "c OK [APPENDUID \(validity) 1] Append completed.\r\n")
        let appended = store.messages(of: "alice@example.com", folder: "Sent")[0]
        #expect(appended.flags == .seen && appended.keywords == ["$Work"])
        #expect(appended.internalDate == Date(timeIntervalSince1970: 1_770_455_472))
        _ = dialogue.send("d SELECT INBOX\r\n")
        #expect(dialogue.send("e COPY 1:2 Sent\r\n") == "e OK [COPYUID \(validity) 1:2 2:3] Copy completed.\r\n")
        #expect(dialogue.send("f UID MOVE 2 Sent\r\n") == "* OK [COPYUID \(validity) 2 4] Moved UIDs.\r\n* 2 EXPUNGE\r\nf OK Move completed.\r\n")
        #expect(store.messages(of: "alice@example.com").map(\.uid) == [1])
        #expect(dialogue.send("g COPY 1 Nowhere\r\n") == "g NO [TRYCREATE] Mailbox doesn't exist: Nowhere\r\n")
        // RFC 6855's UTF8 (~{n}) form, once UTF8=ACCEPT is on.
        _ = dialogue.send("h ENABLE UTF8=ACCEPT\r\n")
        #expect(dialogue.send("i APPEND Sent UTF8 (~{21+}\r\nSubject: Grüße\r\n\r\nx)\r\n") == "i OK [APPENDUID \(validity) 5] Append completed.\r\n")
        #expect(store.messages(of: "alice@example.com", folder: "Sent").last?.transaction.message.subject == "Grüße")
    }

    @Test("hidden capabilities are not listed and their commands are refused")
    func hidden() {
        var dialogue = IMAPTestDialogue.loggedIn(MailStore.withInbox(1), settings: IMAPSettings(hiddenCapabilities: ["move", "IDLE", "UIDPLUS"]))
        let capabilities = dialogue.send("a CAPABILITY\r\n")
        #expect(!capabilities.contains(" MOVE") && !capabilities.contains("IDLE") && !capabilities.contains("UIDPLUS"))
        _ = dialogue.send("b SELECT INBOX\r\n")
        #expect(dialogue.send("c MOVE 1 INBOX\r\n") == "c BAD Unknown command MOVE.\r\n")
        #expect(dialogue.send("d IDLE\r\n") == "d BAD Unknown command IDLE.\r\n")
        #expect(dialogue.send("e UID EXPUNGE 1\r\n") == "e BAD Unknown UID command EXPUNGE.\r\n")
    }

    @Test("ENABLE turns on what the server has; QRESYNC brings CONDSTORE; expunges then come as VANISHED")
    func enable() {
        let store = MailStore.withInbox(3)
        var dialogue = IMAPTestDialogue.loggedIn(store)
        #expect(dialogue.send("a ENABLE QRESYNC FOO\r\n") == "* ENABLED QRESYNC CONDSTORE\r\na OK Enabled.\r\n")
        _ = dialogue.send("b SELECT INBOX\r\n")
        var other = IMAPTestDialogue.loggedIn(store)
        _ = other.send("c SELECT INBOX\r\n")
        _ = other.send("d STORE 1,3 +FLAGS.SILENT (\\Deleted)\r\n")
        _ = other.send("e EXPUNGE\r\n")
        #expect(dialogue.send("f NOOP\r\n") == "* VANISHED 1,3\r\nf OK NOOP completed.\r\n")
    }

    @Test("SEARCH, UID SEARCH, ESEARCH's RETURN, SAVE's $, a bad charset, SORT")
    func search() {
        var dialogue = IMAPTestDialogue.loggedIn(MailStore.withInbox(4))
        _ = dialogue.send("a SELECT INBOX\r\n")
        #expect(dialogue.send("b SEARCH UNSEEN\r\n") == "* SEARCH 2 3 4\r\nb OK Search completed.\r\n")
        #expect(dialogue.send("c UID SEARCH SUBJECT \"message 3\"\r\n") == "* SEARCH 3\r\nc OK Search completed.\r\n")
        #expect(dialogue.send("d SEARCH RETURN (MIN MAX COUNT) NOT SEEN\r\n") == "* ESEARCH (TAG \"d\") MIN 2 MAX 4 COUNT 3\r\nd OK Search completed.\r\n")
        #expect(dialogue.send("e SEARCH CHARSET KOI8-R ALL\r\n").hasPrefix("e NO [BADCHARSET (UTF-8 US-ASCII)]"))
        #expect(dialogue.send("f SEARCH RETURN (SAVE) OR 1 4\r\n") == "f OK Search completed.\r\n")
        #expect(dialogue.send("g UID SEARCH UID $\r\n") == "* SEARCH 1 4\r\ng OK Search completed.\r\n")
        #expect(dialogue.send("h SORT (REVERSE SUBJECT) UTF-8 ALL\r\n") == "* SORT 4 3 2 1\r\nh OK Sort completed.\r\n")
        #expect(dialogue.send("i SEARCH FROBNICATE\r\n").hasPrefix("i BAD "))
    }

    @Test("FETCH: FLAGS, UID, RFC822.SIZE, INTERNALDATE, a header field; BODY[] sets \\Seen and says so, BODY.PEEK does not")
    func fetch() {
        var dialogue = IMAPTestDialogue.loggedIn(MailStore.withInbox(2))
        _ = dialogue.send("a SELECT INBOX\r\n")
        #expect(dialogue.send("b FETCH 1 (FLAGS RFC822.SIZE)\r\n") == "* 1 FETCH (FLAGS (\\Seen \\Recent) RFC822.SIZE 82)\r\nb OK Fetch completed.\r\n")
        #expect(dialogue.send("c UID FETCH 2 BODY.PEEK[HEADER.FIELDS (SUBJECT)]\r\n")
            == "* 2 FETCH (UID 2 BODY[HEADER.FIELDS (SUBJECT)] {22}\r\nSubject: Message 2\r\n\r\n)\r\nc OK Fetch completed.\r\n")
        #expect(dialogue.send("d FETCH 2 BODY[TEXT]\r\n") == "* 2 FETCH (FLAGS (\\Seen \\Recent) BODY[TEXT] {8}\r\nBody 2\r\n)\r\nd OK Fetch completed.\r\n")
        #expect(dialogue.send("e FETCH 2 BODY.PEEK[TEXT]\r\n") == "* 2 FETCH (BODY[TEXT] {8}\r\nBody 2\r\n)\r\ne OK Fetch completed.\r\n")
        #expect(dialogue.send("f FETCH 1 INTERNALDATE\r\n").hasPrefix("* 1 FETCH (INTERNALDATE \""))
        #expect(dialogue.send("g FETCH 1 FROB\r\n").hasPrefix("g BAD "))
        #expect(dialogue.send("h FETCH 3 FLAGS\r\n") == "h BAD Error in IMAP command: Invalid messageset: message 3 of 2.\r\n")
        #expect(dialogue.send("i UID FETCH 3:* FLAGS\r\n") == "* 2 FETCH (UID 2 FLAGS (\\Seen \\Recent))\r\ni OK Fetch completed.\r\n")
    }

    @Test("CONDSTORE: FETCH CHANGEDSINCE answers only what changed, with MODSEQ; STORE UNCHANGEDSINCE refuses what changed since")
    func condStore() {
        var dialogue = IMAPTestDialogue.loggedIn(MailStore.withInbox(3))
        _ = dialogue.send("a SELECT INBOX (CONDSTORE)\r\n")
        let before = dialogue.session.store.folder(of: "alice@example.com")!.highestModSeq
        _ = dialogue.send("b STORE 2 +FLAGS.SILENT (\\Flagged)\r\n")
        #expect(dialogue.send("c FETCH 1:* (FLAGS) (CHANGEDSINCE \(before))\r\n") == "* 2 FETCH (FLAGS (\\Flagged \\Recent) MODSEQ (\(before + 1)))\r\nc OK Fetch completed.\r\n")
        #expect(dialogue.send("d STORE 1:2 (UNCHANGEDSINCE \(before)) +FLAGS.SILENT (\\Answered)\r\n")
            == "* 1 FETCH (MODSEQ (\(before + 2)))\r\nd OK [MODIFIED 2] Conditional store failed.\r\n")
    }

    @Test("FETCH with a drop-midway fault sends half the messages, then BYE")
    func fetchFault() {
        let plan = MailFaultPlan(seed: 1)
        plan.add(MailFaultRule(at: .imapFetch, .dropMidway))
        var dialogue = IMAPTestDialogue(store: MailStore.withInbox(4), faults: plan)
        _ = dialogue.start()
        _ = dialogue.send("L LOGIN alice@example.com x\r\n")
        _ = dialogue.send("a SELECT INBOX\r\n")
        #expect(dialogue.send("b FETCH 1:* UID\r\n") == "* 1 FETCH (UID 1)\r\n* 2 FETCH (UID 2)\r\n* BYE Server shutting down.\r\n")
        #expect(dialogue.closed == "imap.fetch fault: BYE mid-FETCH")
    }

    @Test("a large FETCH goes out a part at a time, each part made after the one before was taken; no command is read meanwhile")
    func fetchInParts() {
        let store = MailStore(uidValidity: 7)
        let body = String(repeating: "0123456789abcdef\r\n", count: 4096)   // 72 KiB
        for index in 1...10 {
            store.deliver(Data("Subject: \(index)\r\n\r\n\(body)".utf8), envelope: MailEnvelope(sender: "", recipients: ["a@example.com"], origin: .seed(path: "t")))
        }
        var session = IMAPSession(settings: IMAPSettings(), store: store)
        _ = session.start()
        var input = Array("a LOGIN a@example.com x\r\nb SELECT INBOX\r\nc FETCH 1:* BODY.PEEK[]\r\nd NOOP\r\n".utf8)[...]
        _ = session.read(&input)
        _ = session.read(&input)
        var parts: [[UInt8]] = []
        while true {
            let sends = session.read(&input).compactMap { action -> [UInt8]? in
                if case .send(let bytes) = action { bytes } else { nil }
            }
            guard sends.count == 1, let bytes = sends.first else { break }
            parts.append(bytes)
            if String(decoding: bytes.suffix(40), as: UTF8.self).contains("c OK Fetch completed.") { break }
            #expect(String(decoding: input, as: UTF8.self) == "d NOOP\r\n")
        }
        #expect(parts.count >= 3)
        #expect(parts.dropLast().allSatisfy { $0.count >= IMAPSession.fetchChunk && $0.count < IMAPSession.fetchChunk + 80_000 })
        let whole = String(decoding: parts.joined(), as: UTF8.self)
        #expect(whole.components(separatedBy: " FETCH (BODY[] {").count == 11)
        #expect(whole.hasPrefix("* 1 FETCH (BODY[] {") && whole.hasSuffix(")\r\nc OK Fetch completed.\r\n"))
        let next = session.read(&input)
        #expect(next == [.record(Array("d NOOP".utf8)), .send(Array("d OK NOOP completed.\r\n".utf8))], "\(next.count) actions")
    }

    @Test("a POP3 DELE applied at QUIT is an expunge to an IMAP session on the same INBOX; POP3's RETR sets \\Seen it hears of")
    func pop3Deletes() {
        let store = MailStore.withInbox(3)
        var imap = IMAPTestDialogue.loggedIn(store)
        _ = imap.send("a SELECT INBOX\r\n")
        var pop3 = POP3TestDialogue(store: store)
        _ = pop3.send("USER alice@example.com\r\nPASS x\r\nRETR 3\r\nDELE 2\r\nQUIT\r\n")
        #expect(imap.send("b NOOP\r\n") == "* 2 EXPUNGE\r\n* 2 FETCH (FLAGS (\\Seen \\Recent))\r\nb OK NOOP completed.\r\n")
    }

    @Test("APPENDLIMIT is the smaller of the literal limit and the store's bytes; a larger APPEND is refused before its literal is read")
    func appendLimit() {
        var dialogue = IMAPTestDialogue.loggedIn(MailStore.withInbox(1), settings: IMAPSettings(limits: IMAPReaderLimits(literalSize: 1000)))
        #expect(dialogue.send("a CAPABILITY\r\n").contains(" APPENDLIMIT=1000\r\n"))
        #expect(dialogue.send("b STATUS INBOX (APPENDLIMIT)\r\n") == "* STATUS INBOX (APPENDLIMIT 1000)\r\nb OK Status completed.\r\n")
        #expect(dialogue.send("c APPEND INBOX {1001}\r\n") == "c BAD Literal of 1001 octets too large (limit 1000 octets).\r\n")
    }

    @Test("keywords are bounded per folder: a STORE or APPEND past the limit is NO [LIMIT], and nothing changes")
    func keywordLimit() {
        let store = MailStore.withInbox(1)
        var dialogue = IMAPTestDialogue.loggedIn(store)
        _ = dialogue.send("a SELECT INBOX\r\n")
        let many = (0...MailFolder.keywordLimit).map { "k\($0)" }.joined(separator: " ")
        #expect(dialogue.send("b STORE 1 +FLAGS.SILENT (\(many))\r\n") == "b NO [LIMIT] Too many keywords in the mailbox (limit 1000).\r\n")
        #expect(store.folder(of: "alice@example.com")?.keywords.isEmpty == true)
        let fits = (1..<MailFolder.keywordLimit).map { "k\($0)" }.joined(separator: " ")
        #expect(dialogue.send("c STORE 1 +FLAGS.SILENT (\(fits) K1 k1)\r\n").hasSuffix(" k999)\r\nc OK Store completed.\r\n"))
        #expect(store.folder(of: "alice@example.com")?.keywords.count == MailFolder.keywordLimit - 1)
        #expect(dialogue.send("d APPEND INBOX (new1 new2) {3+}\r\nx\r\n\r\n") == "d NO [LIMIT] Too many keywords in the mailbox (limit 1000).\r\n")
        #expect(dialogue.send("e APPEND INBOX {0+}\r\n\r\n") == "e NO Can't save a zero byte message.\r\n")
    }

    @Test("the selected folder deleted by another: the next command, even one that fails, gets BYE and the close")
    func selectedFolderDeleted() throws {
        let store = MailStore.withInbox(1)
        try store.createFolder("Foo", of: "alice@example.com")
        var dialogue = IMAPTestDialogue.loggedIn(store)
        _ = dialogue.send("a SELECT Foo\r\n")
        try store.deleteFolder("Foo", of: "alice@example.com")
        #expect(dialogue.send("b STATUS Nope (MESSAGES)\r\n") == "* BYE Mailbox was deleted or renamed.\r\n")
        #expect(dialogue.closed == "selected mailbox gone")
    }

    @Test("QRESYNC: VANISHED (EARLIER) never names UID 0, and names what went")
    func vanishedEarlier() throws {
        let store = MailStore.withInbox(3)
        try store.createFolder("Empty", of: "alice@example.com")
        let validity = store.folder("Empty", of: "alice@example.com")!.uidValidity
        var dialogue = IMAPTestDialogue.loggedIn(store)
        _ = dialogue.send("a ENABLE QRESYNC\r\n")
        #expect(!dialogue.send("b SELECT Empty (QRESYNC (\(validity) 1 1:*))\r\n").contains("VANISHED"))
        _ = dialogue.send("c SELECT INBOX\r\n")
        _ = dialogue.send("d STORE 1:* +FLAGS.SILENT (\\Deleted)\r\n")
        _ = dialogue.send("e EXPUNGE\r\n")
        #expect(dialogue.send("f UID FETCH 1:* (FLAGS) (CHANGEDSINCE 1 VANISHED)\r\n") == "* VANISHED (EARLIER) 1:3\r\nf OK Fetch completed.\r\n")
    }

    @Test("MOVE into the selected folder moves; RENAME of the selected folder keeps it selected; FETCH answers flags another changed")
    func moveRenameFreshFlags() throws {
        let store = MailStore.withInbox(2)
        var dialogue = IMAPTestDialogue.loggedIn(store)
        _ = dialogue.send("a SELECT INBOX\r\n")
        let validity = store.folder(of: "alice@example.com")!.uidValidity
        #expect(dialogue.send("b MOVE 1 INBOX\r\n") == "* OK [COPYUID \(validity) 1 3] Moved UIDs.\r\n* 1 EXPUNGE\r\n* 2 EXISTS\r\n* 2 RECENT\r\nb OK Move completed.\r\n")
        _ = dialogue.send("c CREATE Foo\r\n")
        _ = dialogue.send("d SELECT Foo\r\n")
        #expect(dialogue.send("e RENAME Foo Bar\r\n") == "e OK Rename completed.\r\n")
        #expect(dialogue.send("f NOOP\r\n") == "f OK NOOP completed.\r\n")
        #expect(dialogue.send("g FETCH * FLAGS\r\n") == "g BAD Error in IMAP command: Invalid messageset: the mailbox is empty.\r\n")
        _ = dialogue.send("h SELECT INBOX\r\n")
        store.updateFlags(uid: 2, of: "alice@example.com") { $0.insert(.flagged) }
        // The change is told first (as Dovecot does), and the answer carries it too.
        #expect(dialogue.send("i FETCH 1 FLAGS\r\n") == "* 1 FETCH (FLAGS (\\Flagged))\r\n* 1 FETCH (FLAGS (\\Flagged))\r\ni OK Fetch completed.\r\n")
    }
}
