import Foundation
import MockServerTLS
import Testing
import TestSupport

/// Python's `imaplib`, the IMAP client of the standard library, against each server under test on
/// the seed (``IMAPSeed``): a read-only session, a session that changes things, two sessions that
/// see each other, IDLE told of new mail, and logins over STARTTLS and imaps with their failures (a
/// wrong password, TLS required but not used). The programs are ``IMAPLibScripts``; what they print
/// must be the same from every server.
@Suite("imaplib against each IMAP server on the seed", .offPool,
       .enabled(if: Tools.hasPython && IMAPServerUnderTest.tested.allSatisfy(\.isAvailable), "needs python3 and dovecot-imapd"))
struct IMAPLibClientTests {
    /// What the read-only session prints.
    static let read: [String] = [
            "greeting caps True False",
            "login OK",
            "capability IMAP4REV1 True",
            "capability NAMESPACE True",
            "capability UIDPLUS True",
            "capability MOVE True",
            "capability IDLE True",
            "capability SPECIAL-USE True",
            "capability LIST-STATUS True",
            "capability ENABLE True",
            "capability ID True",
            "capability LITERAL+ True",
            "capability UNSELECT True",
            "capability ESEARCH True",
            "capability CONDSTORE True",
            "enable OK [b'CONDSTORE']",
            "id OK True",
            #"namespace OK (("" "/")) NIL NIL"#,
            #"list Archive / \Archive"#,
            "list Archive/2026 / ",
            #"list Drafts / \Drafts"#,
            "list INBOX / ",
            #"list Junk / \Junk"#,
            #"list Sent / \Sent"#,
            #"list Trash / \Trash"#,
            "list-status Archive MESSAGES=0 UNSEEN=0",
            "list-status Archive/2026 MESSAGES=2 UNSEEN=0",
            "list-status Drafts MESSAGES=1 UNSEEN=0",
            "list-status INBOX MESSAGES=8 UNSEEN=3",
            "list-status Junk MESSAGES=1 UNSEEN=1",
            "list-status Sent MESSAGES=1 UNSEEN=0",
            "list-status Trash MESSAGES=1 UNSEEN=0",
            "list % ['Archive', 'Drafts', 'INBOX', 'Junk', 'Sent', 'Trash']",
            "list Archive/% ['Archive/2026']",
            "lsub OK",
            "status INBOX OK 8 3 True",
            "status Archive/2026 OK 2 0 True",
            "status Junk OK 1 1 True",
            "examine OK [b'2'] [b'']",
            "select OK [b'8']",
            #"select flags ['\\Answered', '\\Deleted', '\\Draft', '\\Flagged', '\\Seen']"#,
            "uidvalidity present True True",
            #"flags 1 \Seen"#,
            "flags 2 ",
            #"flags 3 \Flagged \Seen"#,
            #"flags 4 \Answered \Seen"#,
            #"flags 5 \Draft \Seen"#,
            #"flags 6 \Seen"#,
            "flags 7 ",
            "flags 8 ",
            #"envelope 1 (ENVELOPE ("Mon, 02 Nov 2026 09:00:00 +0000" "Lunch on Friday" (("Bob" NIL "bob" "example.com")) (("Bob" NIL "bob" "example.com")) (("Bob" NIL "bob" "example.com")) (("Ann" NIL "ann" "example.com")) NIL NIL NIL "<lunch@example.com>"))"#,
            #"bodystructure 6 6 (BODYSTRUCTURE (("text" "plain" ("charset" "utf-8") NIL NIL "quoted-printable" 34 1 NIL NIL NIL NIL)("application" "pdf" ("name*" "utf-8''R%C3%A9sum%C3%A9%202026.pdf") NIL NIL "base64" 42 NIL ("attachment" ("filename*" "utf-8''R%C3%A9sum%C3%A9%202026.pdf")) NIL NIL) "mixed" ("boundary" "outer-boundary") NIL NIL NIL))"#,
            #"bodystructure 7 7 (BODYSTRUCTURE (("text" "plain" ("charset" "us-ascii") NIL NIL "7bit" 12 1 NIL NIL NIL NIL)("message" "rfc822" NIL NIL NIL "7bit" 184 ("Mon, 02 Nov 2026 09:00:00 +0000" "Lunch on Friday" (("Bob" NIL "bob" "example.com")) (("Bob" NIL "bob" "example.com")) (("Bob" NIL "bob" "example.com")) (("Dan" NIL "dan" "example.com")) NIL NIL NIL "<lunch-dan@example.com>") ("text" "plain" ("charset" "us-ascii") NIL NIL "7bit" 24 1 NIL NIL NIL NIL) 7 NIL NIL NIL NIL) "mixed" ("boundary" "fwd-boundary") NIL NIL NIL))"#,
            #"body.peek[] 1 (BODY[] {180} b'From: Bob <bob@example.com>\r\nTo: Ann <an'"#,
            #"header.fields 2 (BODY[HEADER.FIELDS (SUBJECT)] {29} b'Subject: Quarterly report\r\n\r\n'"#,
            #"mime b"Content-Type: application/pdf; name*=utf-8''R%C3%A9sum%C3%A9%202026.pdf\r\nContent-Disposition: attachment; filename*=utf-8''R%C3%A9sum%C3%A9%202026.pdf\r\nContent-Transfer-Encoding: base64\r\n\r\n""#,
            #"rfc822 header b'Subject: Lunch on Friday\r\n\r\n'"#,
            "partial 1 (BODY[]<0> {10} b'From: Bob '",
            "still unseen ",
            #"body[text] \Seen b'The numbers are in: revenue grew by a tenth.\r\n'"#,
            #"now seen \Seen"#,
            "search UNSEEN OK 7 8",
            "search SEEN OK 1 2 3 4 5 6",
            "search FLAGGED OK 3",
            "search ANSWERED OK 4",
            "search DRAFT OK 5",
            "search FROM bob OK 1 3",
            "search SUBJECT lunch OK 1 7",
            "search OR FLAGGED DRAFT OK 3 5",
            "search NOT SEEN OK 7 8",
            "search SENTSINCE 4-Nov-2026 OK 4 5 6 7 8",
            "search SENTBEFORE 3-Nov-2026 OK 1",
            "search SINCE 1-Nov-2026 OK 1 2 3 4 5 6 7 8",
            "search BEFORE 1-Nov-2026 OK ",
            "search ON 1-Nov-2026 OK 1 2 3 4 5 6 7 8",
            "search LARGER 500 OK 6 7",
            "search BODY revenue OK 2",
            "search TEXT noon OK 1 7",
            "search HEADER Message-ID cv@ OK 6",
            "search 2:4 SEEN OK 2 3 4",
            "search CC bob OK 2",
            "search utf-8 subject OK 8",
            "uid search OK 8 True",
            #"uid fetch OK \Flagged \Seen True"#,
            "unselect OK",
            "close OK",
            "logout BYE",
        ]

    /// What the changing session prints.
    static let change: [String] = [
            "append OK True",
            "status after append True",
            #"appended 9 True True \Flagged \Seen True"#,
            #"store +flags OK [('1', '\\Flagged \\Seen')]"#,
            "store -flags.silent OK [None]",
            #"flags 1 \Seen"#,
            "keyword OK $Important",
            "uid search flagged 2",
            "uid store silent OK [None]",
            #"uid fetch \Answered \Flagged \Seen True"#,
            "uid copy OK True",
            "status Sent 2",
            "uid move OK True expunged [b'3']",
            "after move 1 2 3 4 5 6 7 8",
            "uid expunge OK ['2']",
            "still deleted 1",
            "expunge OK [b'1']",
            "inbox now [b'6']",
            "close OK 0",
            "create OK OK NO",
            "list Projects* ['Projects', 'Projects/Alpha']",
            "rename OK ['Work', 'Work/Alpha'] []",
            "select renamed OK [b'0']",
            "delete OK OK [] NO",
            "subscribe OK OK",
            "lsub True True",
            "unsubscribe OK",
            "lsub False True",
            "select missing NO",
            "logout BYE",
        ]

    /// What the two sessions print.
    static let twoSessions: [String] = [
            "b authenticate plain OK",
            #"b sees store [('2', '\\Flagged')]"#,
            #"b sees deleted [('4', '\\Answered \\Deleted \\Seen')]"#,
            "a expunge [b'4']",
            "b sees expunge [b'4']",
            "b now 1 2 3 4 5 6 7",
            "a sees store [('1', '')]",
        ]

    /// Runs `script` against `server` as ann, and the lines it printed.
    static func lines(_ script: String, _ server: IMAPTestServer) throws -> (lines: [String], result: Tools.Result) {
        let result = try IMAPLibScripts.run(script, [server.host, String(server.port), IMAPSeed.ann])
        return (result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init), result)
    }

    @Test("a read-only session: capabilities, namespace, LIST with special use and status, SELECT, FETCH, SEARCH",
          arguments: IMAPServerUnderTest.tested)
    func reads(server: IMAPServerUnderTest) throws {
        let running = try server.start(seed: try IMAPSeed.make())
        defer { running.stop() }
        let session = try Self.lines(IMAPLibScripts.read, running)
        #expect(session.lines == Self.read, "\(server): \(session.result.stderr)")
    }

    @Test("a session that changes things: APPEND, STORE, UID COPY/MOVE/EXPUNGE, CLOSE, CREATE/RENAME/DELETE, SUBSCRIBE",
          arguments: IMAPServerUnderTest.tested)
    func changes(server: IMAPServerUnderTest) throws {
        let running = try server.start(seed: try IMAPSeed.make())
        defer { running.stop() }
        let session = try Self.lines(IMAPLibScripts.change, running)
        #expect(session.lines == Self.change, "\(server): \(session.result.stderr)")
    }

    @Test("two sessions on one INBOX (one by AUTHENTICATE PLAIN) see each other's STORE and EXPUNGE", arguments: IMAPServerUnderTest.tested)
    func twoSessions(server: IMAPServerUnderTest) throws {
        let running = try server.start(seed: try IMAPSeed.make())
        defer { running.stop() }
        let session = try Self.lines(IMAPLibScripts.twoSessions, running)
        #expect(session.lines == Self.twoSessions, "\(server): \(session.result.stderr)")
    }

    @Test("IDLE: a message delivered meanwhile is announced as EXISTS, and DONE ends the IDLE", arguments: IMAPServerUnderTest.tested)
    func idle(server: IMAPServerUnderTest) throws {
        let running = try server.start(seed: try IMAPSeed.make())
        defer { running.stop() }
        let python = try #require(Tools.path(of: "python3"))
        let child = try ChildProcess(python, ["-c", IMAPLibScripts.idle, running.host, String(running.port), IMAPSeed.ann])
        var printed: [String] = []
        while true {
            let line = PipeReading.readLine(child.output)
            if line.isEmpty { break }
            printed.append(line)
            if line == "idling" {
                try running.deliver("From: Bob <bob@example.com>\r\nTo: ann@example.com\r\nSubject: Arrived while idling\r\n\r\nHello.\r\n", to: IMAPSeed.ann)
            }
        }
        let errors = String(decoding: PipeReading.readToEnd(child.errors), as: UTF8.self)
        #expect(child.wait() == 0, "\(errors)")
        #expect(printed == ["selected 8", "continuation True", "idling", "told * 9 EXISTS", "done OK", "new Subject: Arrived while idling"],
                "\(server): \(errors)")
    }

    @Test("logins with users set: LOGIN over STARTTLS and imaps with the test CA; a wrong password refused to LOGIN and AUTHENTICATE PLAIN",
          arguments: IMAPServerUnderTest.tested, [TLSSettings.Mode.explicit, .implicit])
    func tlsLogins(server: IMAPServerUnderTest, mode: TLSSettings.Mode) throws {
        let running = try server.start(seed: try IMAPSeed.make(), tls: mode, users: [IMAPSeed.ann: "secret"])
        defer { running.stop() }
        let ca = try #require(running.caFile)
        let how = mode == .explicit ? ["starttls", running.tlsHost, String(running.port)] : ["implicit", running.tlsHost, String(try #require(running.tlsPort))]
        let good = try IMAPLibScripts.run(IMAPLibScripts.login, how + [ca, IMAPSeed.ann, "secret"])
        let secured = mode == .explicit ? ["starttls offered True", "starttls OK"] : []
        #expect(good.stdout == (secured + ["logindisabled now False auth=plain True", "login OK", "select OK 8", "logout BYE", ""]).joined(separator: "\n"),
                "\(server): \(good.stdout)\(good.stderr)")
        let wrong = try IMAPLibScripts.run(IMAPLibScripts.login, how + [ca, IMAPSeed.ann, "wrong"])
        #expect(wrong.stdout == (secured + ["logindisabled now False auth=plain True", "login refused AUTHENTICATIONFAILED",
                                            "authenticate plain refused AUTHENTICATIONFAILED", "logout BYE", ""]).joined(separator: "\n"),
                "\(server): \(wrong.stdout)\(wrong.stderr)")
    }

    @Test("TLS required but not used: LOGINDISABLED, and LOGIN and AUTHENTICATE refused with PRIVACYREQUIRED", arguments: IMAPServerUnderTest.tested)
    func tlsRequiredButNotUsed(server: IMAPServerUnderTest) throws {
        let running = try server.start(seed: try IMAPSeed.make(), tls: .explicit, users: [IMAPSeed.ann: "secret"], tlsRequired: true)
        defer { running.stop() }
        let plain = try IMAPLibScripts.run(IMAPLibScripts.login, ["plain", running.host, String(running.port), "-", IMAPSeed.ann, "secret"])
        #expect(plain.stdout == """
            starttls offered True logindisabled True
            logindisabled now True auth=plain False
            login refused PRIVACYREQUIRED
            authenticate plain refused PRIVACYREQUIRED
            logout BYE

            """, "\(server): \(plain.stdout)\(plain.stderr)")
    }
}
