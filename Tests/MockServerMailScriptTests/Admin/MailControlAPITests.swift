import Foundation
import MockServer
import MockServerAdmin
import MockServerMail
@testable import MockServerMailScript
import Testing
import TestSupport

@Suite("Our mail routes on the control API (/api/v1/mockserver/): folders, failures, UIDVALIDITY, changes", .offPool)
struct MailControlAPITests {
    /// A store with two addresses: Ann's INBOX holds two messages (the first flagged, with the
    /// keyword `work`), her Sent one seen message, and she has `Archive` and `Archive/2026`.
    private static func filledStore(_ store: MailStore) throws -> (first: MailTransaction, second: MailTransaction) {
        let first = store.deliver(MailAdminFixture.message("Reset your password"),
                                  envelope: MailAdminFixture.envelope(to: ["ann@example.com", "dana@example.net"]))
        let second = store.deliver(MailAdminFixture.message("Your receipt"), envelope: MailAdminFixture.envelope(to: ["ann@example.com"]))
        try store.createFolder("Archive/2026", of: "ann@example.com")
        try store.createFolder("Sent", of: "ann@example.com")
        _ = try store.append(MailAdminFixture.message("Sent by Ann"), to: "Sent", of: "ann@example.com", flags: [.seen])
        _ = store.store(MailFlagChange(.add, flags: [.flagged], keywords: ["work"]), uids: [1], folder: "INBOX", of: "ann@example.com")
        return (first, second)
    }

    @Test("mailboxes, folders and a folder's messages: UIDVALIDITY, next UID, HIGHESTMODSEQ, special use, flags, the Mailpit ID; pages; 404s name the address or folder")
    func folders() async throws {
        let fixture = try await MailAdminFixture(store: MailStore(uidValidity: 100))
        defer { fixture.admin.stop() }
        let (first, _) = try Self.filledStore(fixture.store)
        let inbox = try #require(fixture.store.folder("INBOX", of: "ann@example.com"))
        let result = try fixture.python("""
            page = get("/api/v1/mockserver/mailboxes?messages=1")
            assert (page["total"], page["start"], page["count"]) == (2, 0, 2), page
            assert [m["address"] for m in page["mailboxes"]] == ["ann@example.com", "dana@example.net"], page
            ann = page["mailboxes"][0]
            assert ann["folderCount"] == 4 and [f["name"] for f in ann["folders"]] == ["INBOX", "Archive", "Archive/2026", "Sent"], ann
            inbox = ann["folders"][0]
            assert sorted(inbox) == ["highestModSeq", "keywords", "messageCount", "messages", "name", "nextUID", "specialUse",
                                     "uidValidity", "unseenCount"], sorted(inbox)
            assert (inbox["uidValidity"], inbox["nextUID"], inbox["highestModSeq"]) == (\(inbox.uidValidity), 3, \(inbox.highestModSeq)), inbox
            assert (inbox["messageCount"], inbox["unseenCount"], inbox["specialUse"], inbox["keywords"]) == (2, 2, None, ["work"]), inbox
            assert [m["uid"] for m in inbox["messages"]] == [2], inbox["messages"]
            sent = ann["folders"][3]
            assert sent["specialUse"] == "\\\\Sent" and sent["unseenCount"] == 0, sent
            assert ann["folders"][1]["specialUse"] == "\\\\Archive" and ann["folders"][2]["specialUse"] is None, ann
            assert "messages" not in get("/api/v1/mockserver/mailboxes")["mailboxes"][0]["folders"][0]
            later = get("/api/v1/mockserver/mailboxes?start=1&limit=1")
            assert [m["address"] for m in later["mailboxes"]] == ["dana@example.net"] and later["count"] == 1, later
            assert get("/api/v1/mockserver/folders?address=ann@example.com")["folders"] == get("/api/v1/mockserver/mailboxes")["mailboxes"][0]["folders"]

            folder = get("/api/v1/mockserver/folder?address=ann@example.com&folder=INBOX")
            assert folder["address"] == "ann@example.com" and folder["name"] == "INBOX" and folder["start"] == 0, folder
            one = folder["messages"][0]
            assert sorted(one) == ["flags", "id", "internalDate", "keywords", "modSeq", "size", "subject", "uid"], sorted(one)
            assert (one["uid"], one["flags"], one["keywords"], one["id"]) == (1, ["\\\\Flagged"], ["work"], "\(first.id)"), one
            assert (one["subject"], one["size"]) == ("Reset your password", \(first.size)), one
            assert get("/api/v1/message/" + one["id"])["Subject"] == "Reset your password"
            assert [m["uid"] for m in get("/api/v1/mockserver/folder?address=ann@example.com&start=1&limit=1")["messages"]] == [2]
            assert get("/api/v1/mockserver/folder?address=ann@EXAMPLE.COM&folder=Archive/2026")["messages"] == []

            for path, status, culprit in [
                ("/api/v1/mockserver/folders?address=nobody@example.com", 404, "no mailbox for nobody@example.com (addresses: ann@example.com, dana@example.net)"),
                ("/api/v1/mockserver/folder?address=ann@example.com&folder=Nope", 404, "no folder Nope of ann@example.com (its folders: INBOX, Archive, Archive/2026, Sent)"),
                ("/api/v1/mockserver/folder?folder=INBOX", 400, "no address: give address=ann@example.com"),
                ("/api/v1/mockserver/mailboxes?limit=501", 400, "limit must be a whole number from 0 to 500, not 501"),
                ("/api/v1/mockserver/mailboxes?messages=-1", 400, "messages must be a whole number from 0 to 100, not -1"),
            ]:
                answer_status, kind, data = call("GET", path)
                assert answer_status == status and kind == "application/json" and json.loads(data)["error"] == culprit, (path, answer_status, data)
            """)
        #expect(result.status == 0 && result.stdout == "ok\n", "\(result.stdout)\(result.stderr)")
    }

    @Test("POST uidvalidity: a new UIDVALIDITY, the messages renumbered from 1; 404 naming the folder; bad bodies name the field")
    func uidValidity() async throws {
        let fixture = try await MailAdminFixture(store: MailStore(uidValidity: 100))
        defer { fixture.admin.stop() }
        _ = try Self.filledStore(fixture.store)
        _ = fixture.store.remove(uids: [1], folder: "INBOX", of: "ann@example.com")
        let old = try #require(fixture.store.folder("INBOX", of: "ann@example.com")).uidValidity
        let result = try fixture.python("""
            status, kind, data = call("POST", "/api/v1/mockserver/uidvalidity", {"address": "ann@example.com"})
            answer = json.loads(data)
            assert status == 200 and answer["address"] == "ann@example.com" and answer["folder"] == "INBOX", (status, data)
            assert answer["uidValidity"] != \(old), answer
            folder = get("/api/v1/mockserver/folder?address=ann@example.com")
            assert folder["uidValidity"] == answer["uidValidity"] and [m["uid"] for m in folder["messages"]] == [1], folder
            status, kind, data = call("POST", "/api/v1/mockserver/uidvalidity", {"address": "ann@example.com", "folder": "sent"})
            assert status == 404 and json.loads(data)["error"].startswith("no folder sent of ann@example.com (its folders: INBOX,"), data
            for body, culprit in [
                ({"address": "ann@example.com", "folder": 3}, "folder must be a folder's name as a string, not a number"),
                ({"address": "ann@example.com", "mailbox": "INBOX"}, "unknown field mailbox (fields: address, folder)"),
                ({"folder": "INBOX"}, "address must be the address whose folder changes"),
            ]:
                status, kind, data = call("POST", "/api/v1/mockserver/uidvalidity", body)
                assert status == 400 and json.loads(data)["error"].startswith(culprit), (body, status, data)
            status, kind, data = call("POST", "/api/v1/mockserver/uidvalidity", raw=b"nope")
            assert status == 400 and json.loads(data)["error"].startswith("the body is not JSON"), data
            status, kind, data = call("POST", "/api/v1/mockserver/uidvalidity", {"address": "nobody@example.com"})
            assert status == 404 and json.loads(data)["error"].startswith("no mailbox for nobody@example.com"), data
            """)
        #expect(result.status == 0 && result.stdout == "ok\n", "\(result.stdout)\(result.stderr)")
        let folder = try #require(fixture.store.folder("INBOX", of: "ann@example.com"))
        #expect(folder.uidValidity != old && folder.entries.map(\.uid) == [1])
    }

    @Test("failures: set at any point of SMTP, POP3 and IMAP, listed in order, cleared by point or all; bad rules name the culprit")
    func failures() async throws {
        let fixture = try await MailAdminFixture()
        defer { fixture.admin.stop() }
        let result = try fixture.python("""
            empty = get("/api/v1/mockserver/failures")
            assert empty["failures"] == [] and "imap.fetch" in empty["points"] and "smtp.rcpt" in empty["points"] and "pop3.retr" in empty["points"], empty
            status, kind, data = call("POST", "/api/v1/mockserver/failures", {"point": "imap.fetch", "code": 421, "text": "[ALERT] Going down", "user": "ann"})
            assert status == 200, (status, data)
            call("POST", "/api/v1/mockserver/failures", {"point": "smtp.rcpt", "action": "reply", "code": 452, "text": "4.2.2 Full",
                                                          "probability": 0.25, "recipient": "dana@example.net"})
            call("POST", "/api/v1/mockserver/failures", {"point": "pop3.retr", "action": "dropMidway"})
            status, kind, data = call("POST", "/api/v1/mockserver/failures", {"point": "smtp.mail", "action": "drop", "sender": None})
            listed = json.loads(data)["failures"]
            assert listed == get("/api/v1/mockserver/failures")["failures"], listed
            assert listed == [
                {"point": "imap.fetch", "action": "reply", "code": 421, "text": "[ALERT] Going down", "probability": 1, "user": "ann"},
                {"point": "smtp.rcpt", "action": "reply", "code": 452, "text": "4.2.2 Full", "probability": 0.25, "recipient": "dana@example.net"},
                {"point": "pop3.retr", "action": "dropMidway", "probability": 1},
                {"point": "smtp.mail", "action": "drop", "probability": 1},
            ], listed
            for body, culprit in [
                ({"point": "imap.nope", "action": "drop"}, "unknown point imap.nope (points: smtp.greeting, smtp.ehlo,"),
                ({"action": "drop"}, "no point: give point, one of smtp.greeting,"),
                ({"point": "imap.fetch", "action": "explode"}, "unknown action explode (actions: reply, drop, dropMidway)"),
                ({"point": "imap.fetch", "code": 600, "text": "x"}, "code must be a whole number from 200 to 599, not 600"),
                ({"point": "imap.fetch", "code": 421}, "a reply needs text"),
                ({"point": "imap.fetch", "text": "x"}, "a reply needs code"),
                ({"point": "imap.fetch", "code": 421, "text": "x\\r\\nA1 OK injected"}, "text must be one line: it holds the control character U+000D"),
                ({"point": "imap.fetch", "code": 421, "text": "x" * 401}, "text is 401 bytes; it may have at most 400"),
                ({"point": "imap.fetch", "action": "drop", "code": 421}, "code goes with action reply only, not drop"),
                ({"point": "imap.fetch", "action": "drop", "probability": 1.5}, "probability must be a number from 0 to 1, not 1.5"),
                ({"point": "imap.fetch", "action": "drop", "user": 7}, "user must be a string, not a number"),
                ({"point": "imap.fetch", "action": "drop", "chance": 1}, "unknown field chance (fields: point, action, code, text,"),
            ]:
                status, kind, data = call("POST", "/api/v1/mockserver/failures", body)
                assert status == 400 and json.loads(data)["error"].startswith(culprit), (body, status, data)
            status, kind, data = call("DELETE", "/api/v1/mockserver/failures?point=imap.nope")
            assert status == 400 and json.loads(data)["error"].startswith("unknown point imap.nope"), data
            status, kind, data = call("DELETE", "/api/v1/mockserver/failures?point=smtp.rcpt")
            assert [f["point"] for f in json.loads(data)["failures"]] == ["imap.fetch", "pop3.retr", "smtp.mail"], data
            print(len(get("/api/v1/mockserver/failures")["failures"]))
            """)
        #expect(result.status == 0 && result.stdout == "3\nok\n", "\(result.stdout)\(result.stderr)")
        #expect(fixture.faults.rules == [
            MailFaultRule(at: .imapFetch, .reply(code: 421, text: "[ALERT] Going down"), user: "ann"),
            MailFaultRule(at: .pop3Retrieve, .dropMidway),
            MailFaultRule(at: .smtpMail, .drop),
        ])
        let cleared = try fixture.python("""
            status, kind, data = call("DELETE", "/api/v1/mockserver/failures")
            assert status == 200 and json.loads(data)["failures"] == [], data
            """)
        #expect(cleared.status == 0, "\(cleared.stdout)\(cleared.stderr)")
        #expect(fixture.faults.rules.isEmpty)
    }

    // No time limit: its one wait is Python's, which has its own (Tools.python). A test-level limit
    // counts the wait for a thread of the `.offPool` pool too, which a full run under CI's load made
    // longer than a minute (sessions 32 and 33).
    @Test("the plan holds at most 256 rules through the route")
    func ruleLimit() async throws {
        let fixture = try await MailAdminFixture()
        defer { fixture.admin.stop() }
        for _ in 0..<MailControlAPI.largestRuleCount { fixture.faults.add(MailFaultRule(at: .smtpData, .drop)) }
        let result = try fixture.python("""
            status, kind, data = call("POST", "/api/v1/mockserver/failures", {"point": "smtp.mail", "action": "drop"})
            assert status == 400 and json.loads(data)["error"].startswith("the plan holds 256 rules"), (status, data)
            """)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(fixture.faults.rules.count == MailControlAPI.largestRuleCount)
    }

    // The limit catches a poll whose wait never registers (`pollWaits` would wait for ever). It counts
    // the wait for a thread of the `.offPool` pool too, which a full run under CI's load made longer
    // than a minute (sessions 32 and 33): so five minutes, past any full run.
    @Test("changes: answered at once for another token, else as soon as a flag changes or mail comes to a new address; wait=0 answers the same token",
          .timeLimit(.minutes(5)))
    func changes() async throws {
        let (registered, registration) = AsyncStream.makeStream(of: Void.self)
        let store = MailStore(uidValidity: 100, waitRegistered: { _ in registration.yield() })
        let fixture = try await MailAdminFixture(store: store)
        defer { fixture.admin.stop() }
        _ = try Self.filledStore(store)
        let control = MailControlAPI(store: store, faults: fixture.faults)
        let before = control.changeToken()
        let immediate = try fixture.python("""
            assert get("/api/v1/mockserver/changes")["changes"] == "\(before)"
            assert get("/api/v1/mockserver/changes?since=old")["changes"] == "\(before)"
            assert get("/api/v1/mockserver/changes?since=\(before)&wait=0")["changes"] == "\(before)"
            assert get("/api/v1/mockserver/mailboxes")["changes"] == "\(before)"
            status, kind, data = call("GET", "/api/v1/mockserver/changes?wait=301")
            assert status == 400 and json.loads(data)["error"] == "wait must be seconds from 0 to 300, not 301", data
            """)
        #expect(immediate.status == 0, "\(immediate.stdout)\(immediate.stderr)")

        // A long poll (120 s, longer than the test may take) is answered by a flag stored from Swift
        // once it waits: its wait for a delivery has registered (the earlier polls' waits ended
        // with their answers, so a registration left from them finds no wait).
        var iterator = registered.makeAsyncIterator()
        func pollWaits() async {
            while await iterator.next() != nil {
                if store.waiterCount > 0 { return }
            }
        }
        let flagPoll = BackgroundRun.python(Self.longPoll(fixture.base, since: before))
        await pollWaits()
        _ = store.store(MailFlagChange(.add, flags: [.seen]), uids: [2], folder: "INBOX", of: "ann@example.com")
        let afterFlag = control.changeToken()
        let flagged = try await flagPoll.value()
        #expect(afterFlag != before && flagged.stdout == afterFlag + "\n", "\(flagged.stdout)\(flagged.stderr)")

        // And by mail to an address the store did not have when the poll began.
        let mailPoll = BackgroundRun.python(Self.longPoll(fixture.base, since: afterFlag))
        await pollWaits()
        store.deliver(MailAdminFixture.message("Welcome"), envelope: MailAdminFixture.envelope(to: ["lee@example.org"]))
        let delivered = try await mailPoll.value()
        #expect(delivered.stdout == control.changeToken() + "\n" && delivered.stdout != afterFlag + "\n", "\(delivered.stdout)\(delivered.stderr)")
    }

    /// Python that long-polls `changes` past `since` for up to 120 seconds and prints the token answered.
    private static func longPoll(_ base: String, since: String) -> String {
        """
        import json, urllib.request
        with urllib.request.urlopen("\(base)/api/v1/mockserver/changes?wait=120&since=\(since)", timeout=130) as answer:
            print(json.load(answer)["changes"])
        """
    }

    @Test("through the mail server over IMAP (imaplib): flags stored show in the folder route, a rule set over HTTP refuses SELECT, a UIDVALIDITY change is what SELECT reports")
    func overIMAP() throws {
        let mail = try MailServer(MailServerConfiguration())
        try mail.start()
        defer { mail.stop() }
        let admin = MockServer(httpResponder: try AdminResponder(.init(server: mail.smtp, shutdown: {})), configuration: .init(host: "127.0.0.1"))
        try admin.start()
        defer { admin.stop() }
        let result = try Tools.python("""
            import imaplib, json, urllib.request, urllib.error
            base = "http://127.0.0.1:\(admin.port)"
            def call(method, path, body=None):
                data = None if body is None else json.dumps(body).encode()
                request = urllib.request.Request(base + path, data=data, method=method,
                                                 headers={"Content-Type": "application/json"} if data is not None else {})
                with urllib.request.urlopen(request, timeout=20) as answer:
                    return json.load(answer)
            client = imaplib.IMAP4("127.0.0.1", \(mail.imap.port))
            client.login("ann@example.com", "pw")
            assert client.create("Archive")[0] == "OK"
            assert client.append("INBOX", None, None, b"Subject: Hello\\r\\n\\r\\nHi Ann\\r\\n")[0] == "OK"
            assert client.select("INBOX")[0] == "OK"
            assert client.store("1", "+FLAGS", "(\\\\Flagged $Important)")[0] == "OK"
            folder = call("GET", "/api/v1/mockserver/folder?address=ann@example.com&folder=INBOX")
            assert [(m["uid"], m["flags"], m["keywords"], m["subject"]) for m in folder["messages"]] == [(1, ["\\\\Flagged"], ["$Important"], "Hello")], folder
            names = [f["name"] for f in call("GET", "/api/v1/mockserver/folders?address=ann@example.com")["folders"]]
            assert names == ["INBOX", "Archive"], names

            call("POST", "/api/v1/mockserver/failures", {"point": "imap.select", "code": 550, "text": "[ALERT] Mailbox locked", "user": "ann@example.com"})
            status, data = client.select("Archive")
            assert status == "NO" and data == [b"[ALERT] Mailbox locked"], (status, data)
            call("DELETE", "/api/v1/mockserver/failures")
            validity = call("POST", "/api/v1/mockserver/uidvalidity", {"address": "ann@example.com", "folder": "Archive"})["uidValidity"]
            assert client.select("Archive")[0] == "OK"
            assert client.response("UIDVALIDITY")[1] == [str(validity).encode()], client.response("UIDVALIDITY")
            client.logout()
            print("ok")
            """)
        #expect(result.status == 0 && result.stdout == "ok\n", "\(result.stdout)\(result.stderr)")
    }
}
