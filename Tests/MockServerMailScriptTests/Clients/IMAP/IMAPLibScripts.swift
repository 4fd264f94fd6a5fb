import Foundation
import Testing
import TestSupport

/// The Python programs the imaplib suite runs (``IMAPLibClientTests``): each takes the host, the
/// port and the address to log in as (any password but `secret` fails when users are set), and
/// prints what the server answered, made comparable between servers: folder attributes without the
/// optional `\HasChildren`-like ones, FLAGS sorted and without `\Recent` (which Dovecot
/// shows the first session to see a message), UIDs compared with what STATUS predicted rather
/// than printed.
enum IMAPLibScripts {
    /// What every program starts with: its arguments, and the FLAGS of a FETCH response as a sorted set.
    static let prelude = #"""
        import imaplib, re, sys, time
        host, port, user = sys.argv[1], int(sys.argv[2]), sys.argv[3]
        def flagset(line):
            """The FLAGS of a FETCH response, sorted, without \\Recent (Dovecot's, on a session's first sight of a message);
            "(no FLAGS)" when it has none."""
            text = line.decode() if isinstance(line, bytes) else line
            found = re.search(r"FLAGS \((.*?)\)", text)
            return " ".join(sorted(f for f in found.group(1).split() if f != "\\Recent")) if found else "(no FLAGS)"

        """#

    /// A read-only session: CAPABILITY, LOGIN, ENABLE, ID, NAMESPACE, LIST with `RETURN
    /// (SPECIAL-USE STATUS (MESSAGES UNSEEN))`, LIST patterns, LSUB, STATUS, EXAMINE, SELECT,
    /// FETCH (FLAGS, ENVELOPE, BODYSTRUCTURE, BODY.PEEK[], HEADER.FIELDS, MIME and nested
    /// sections, a partial, BODY[TEXT] setting \Seen), SEARCH with many keys and CHARSET UTF-8,
    /// UID SEARCH and FETCH, UNSELECT, CLOSE, LOGOUT.
    static let read = prelude + #"""
        ORDINARY = {"\\HASCHILDREN", "\\HASNOCHILDREN", "\\MARKED", "\\UNMARKED", "\\SUBSCRIBED"}
        def attrs(text):
            return " ".join(sorted(a for a in text.split() if a.upper() not in ORDINARY))
        m = imaplib.IMAP4(host, port, timeout=30)
        caps = set(m.capabilities)
        print("greeting caps", "IMAP4REV1" in caps, "LOGINDISABLED" in caps)
        typ, data = m.login(user, "secret")
        print("login", typ)
        typ, data = m.capability()
        caps = set(data[0].decode().upper().split())
        for c in ["IMAP4REV1", "NAMESPACE", "UIDPLUS", "MOVE", "IDLE", "SPECIAL-USE", "LIST-STATUS", "ENABLE", "ID", "LITERAL+", "UNSELECT", "ESEARCH", "CONDSTORE"]:
            print("capability", c, c in caps)
        typ, data = m.enable("CONDSTORE")
        print("enable", typ, m.untagged_responses.pop("ENABLED", None))
        typ, data = m.xatom("ID", '("name" "imaplib")')
        print("id", typ, m.untagged_responses.pop("ID", None) is not None)
        typ, data = m.namespace()
        print("namespace", typ, data[0].decode())
        typ, data = m._simple_command("LIST", '""', '"*"', "RETURN", "(SPECIAL-USE STATUS (MESSAGES UNSEEN))")
        lists = m._untagged_response(typ, data, "LIST")[1]
        statuses = m._untagged_response(typ, [None], "STATUS")[1]
        rows = []
        for line in lists:
            mo = re.match(rb'\((.*?)\) "(.)" (.*)', line)
            rows.append((mo.group(3).decode().strip('"'), attrs(mo.group(1).decode()), mo.group(2).decode()))
        for name, a, sep in sorted(rows):
            print("list", name, sep, a)
        st = []
        for line in statuses:
            if line is None: continue
            mo = re.match(rb'"?(.*?)"? \((.*)\)', line)
            items = mo.group(2).decode().split()
            st.append((mo.group(1).decode(), " ".join(sorted(f"{items[i]}={items[i+1]}" for i in range(0, len(items), 2)))))
        for name, s in sorted(st):
            print("list-status", name, s)
        typ, data = m.list('""', "%")
        print("list %", sorted(re.match(rb'\(.*?\) "." (.*)', l).group(1).decode().strip('"') for l in data))
        typ, data = m.list('""', "Archive/%")
        print("list Archive/%", sorted(re.match(rb'\(.*?\) "." (.*)', l).group(1).decode().strip('"') for l in data))
        typ, data = m.lsub('""', "*")
        # Which folders a seed has subscribed is the server's choice (Dovecot: none; ours: all).
        print("lsub", typ)
        for folder in ["INBOX", "Archive/2026", "Junk"]:
            typ, data = m.status(folder, "(MESSAGES UNSEEN UIDNEXT)")
            items = re.search(rb'\((.*)\)', data[0]).group(1).decode().split()
            d = dict(zip(items[::2], items[1::2]))
            print("status", folder, typ, d["MESSAGES"], d["UNSEEN"], int(d["UIDNEXT"]) > int(d["MESSAGES"]))
        typ, data = m.select("Archive/2026", readonly=True)
        print("examine", typ, data, m.untagged_responses.get("READ-ONLY"))
        typ, data = m.select("INBOX")
        print("select", typ, data)
        # The system flags; a server may list keywords too (ours: $Forwarded, Maildir's P).
        print("select flags", sorted(f for f in m.untagged_responses.get("FLAGS", [b""])[0].decode().strip("()").split() if f.startswith("\\")))
        print("uidvalidity present", "UIDVALIDITY" in m.untagged_responses, "UIDNEXT" in m.untagged_responses)
        typ, data = m.fetch("1:*", "(FLAGS)")
        for line in data:
            mo = re.match(rb'(\d+) \(FLAGS \((.*?)\)\)', line)
            print("flags", mo.group(1).decode(), flagset(line))
        typ, data = m.fetch("1", "(ENVELOPE)")
        print("envelope", data[0].decode())
        typ, data = m.fetch("6", "(BODYSTRUCTURE)")
        print("bodystructure 6", data[0].decode())
        typ, data = m.fetch("7", "(BODYSTRUCTURE)")
        print("bodystructure 7", data[0].decode())
        typ, data = m.fetch("1", "(BODY.PEEK[])")
        print("body.peek[]", data[0][0].decode(), data[0][1][:40])
        typ, data = m.fetch("2", "(BODY.PEEK[HEADER.FIELDS (SUBJECT)])")
        print("header.fields", data[0][0].decode(), data[0][1])
        typ, data = m.fetch("6", "(BODY.PEEK[2.MIME])")
        print("mime", data[0][1])
        typ, data = m.fetch("7", "(BODY.PEEK[2.HEADER.FIELDS (SUBJECT)])")
        print("rfc822 header", data[0][1])
        typ, data = m.fetch("1", "(BODY.PEEK[]<0.10>)")
        print("partial", data[0][0].decode(), data[0][1])
        typ, data = m.fetch("2", "(FLAGS)")
        print("still unseen", flagset(data[0]))
        typ, data = m.fetch("2", "(BODY[TEXT])")
        print("body[text]", flagset(data[0][0]), data[0][1])
        typ, data = m.fetch("2", "(FLAGS)")
        print("now seen", flagset(data[0]))
        for criteria in [("UNSEEN",), ("SEEN",), ("FLAGGED",), ("ANSWERED",), ("DRAFT",), ("FROM", "bob"), ("SUBJECT", "lunch"), ("OR", "FLAGGED", "DRAFT"),
                         ("NOT", "SEEN"), ("SENTSINCE", "4-Nov-2026"), ("SENTBEFORE", "3-Nov-2026"), ("SINCE", "1-Nov-2026"), ("BEFORE", "1-Nov-2026"), ("ON", "1-Nov-2026"), ("LARGER", "500"), ("BODY", "revenue"), ("TEXT", "noon"), ("HEADER", "Message-ID", "cv@"),
                         ("2:4", "SEEN"), ("CC", "bob")]:
            typ, data = m.search(None, *criteria)
            print("search", " ".join(criteria), typ, data[0].decode())
        m.literal = "Grüße".encode()
        typ, data = m.search("UTF-8", "SUBJECT")
        print("search utf-8 subject", typ, data[0].decode())
        typ, data = m.uid("SEARCH", "ALL")
        uids = [int(u) for u in data[0].split()]
        print("uid search", typ, len(uids), uids == sorted(uids))
        typ, data = m.uid("FETCH", str(uids[2]), "(FLAGS)")
        print("uid fetch", typ, flagset(data[0]), ("UID %d " % uids[2]).encode() in data[0])
        typ, data = m.unselect()
        print("unselect", typ)
        typ, data = m.select("Archive/2026", readonly=True)
        typ, data = m.close()
        print("close", typ)
        print("logout", m.logout()[0])
        """#

    /// A session that changes things: APPEND with flags and a date (APPENDUID), STORE
    /// +FLAGS/-FLAGS.SILENT and a keyword, UID SEARCH/STORE/COPY (COPYUID)/MOVE, UID EXPUNGE
    /// (only the UIDs named), EXPUNGE, CLOSE (expunging), CREATE/RENAME (children too)/DELETE,
    /// SUBSCRIBE/LSUB/UNSUBSCRIBE, SELECT of a missing folder.
    static let change = prelude + #"""
        def taken(m, name):
            """The arguments of response code NAME (APPENDUID, COPYUID) the last command's response carried."""
            typ, data = m.response(name)
            return data[-1].decode().split() if data and data[-1] else None
        def status(m, folder, items="MESSAGES UIDNEXT UIDVALIDITY"):
            typ, data = m.status(folder, "(" + items + ")")
            found = re.search(rb"\((.*)\)", data[0]).group(1).decode().split()
            return {k: int(v) for k, v in zip(found[::2], found[1::2])}
        def names(m, pattern):
            typ, data = m.list('""', pattern)
            return sorted(re.match(rb'\(.*?\) "." (.*)', l).group(1).decode().strip('"') for l in data if l)
        m = imaplib.IMAP4(host, port, timeout=30)
        m.login(user, "secret")
        before = status(m, "INBOX")
        raw = b"From: Ann <ann@example.com>\r\nTo: bob@example.com\r\nSubject: Appended\r\n\r\nSaved by APPEND.\r\n"
        typ, data = m.append("INBOX", r"(\Seen \Flagged)", imaplib.Time2Internaldate(1793750400), raw)
        appenduid = taken(m, "APPENDUID")
        print("append", typ, appenduid == [str(before["UIDVALIDITY"]), str(before["UIDNEXT"])])
        print("status after append", status(m, "INBOX", "MESSAGES")["MESSAGES"] == before["MESSAGES"] + 1)
        typ, data = m.select("INBOX")
        n = int(data[0])
        typ, data = m.fetch(str(n), "(UID INTERNALDATE FLAGS RFC822.SIZE)")
        text = data[0].decode()
        print("appended", n, re.search(r"UID (\d+)", text).group(1) == appenduid[1], time.mktime(imaplib.Internaldate2tuple(data[0])) == 1793750400,
              flagset(text), re.search(r"RFC822.SIZE (\d+)", text).group(1) == str(len(raw)))
        typ, data = m.store("1", "+FLAGS", r"(\Flagged)")
        print("store +flags", typ, [(d.split()[0].decode(), flagset(d)) for d in data])
        typ, data = m.store("1", "-FLAGS.SILENT", r"(\Flagged)")
        print("store -flags.silent", typ, data)
        typ, data = m.fetch("1", "(FLAGS)")
        print("flags 1", flagset(data[0]))
        typ, data = m.store("2", "+FLAGS", r"($Important)")
        print("keyword", typ, flagset(data[0]))
        typ, data = m.uid("SEARCH", "FLAGGED")
        flagged = data[0].split()
        print("uid search flagged", len(flagged))
        typ, data = m.uid("STORE", flagged[0], "+FLAGS.SILENT", r"(\Answered)")
        print("uid store silent", typ, data)
        typ, data = m.uid("FETCH", flagged[0], "(FLAGS)")
        print("uid fetch", flagset(data[0]), b"UID " + flagged[0] + b" " in data[0] + b" ")
        sent = status(m, "Sent")
        typ, data = m.uid("COPY", flagged[0], "Sent")
        copyuid = taken(m, "COPYUID")
        print("uid copy", typ, copyuid == [str(sent["UIDVALIDITY"]), flagged[0].decode(), str(sent["UIDNEXT"])])
        print("status Sent", status(m, "Sent")["MESSAGES"])
        trash = status(m, "Trash")
        typ, data = m.uid("MOVE", flagged[0], "Trash")
        moved = taken(m, "COPYUID")
        print("uid move", typ, moved == [str(trash["UIDVALIDITY"]), flagged[0].decode(), str(trash["UIDNEXT"])], "expunged", m.untagged_responses.pop("EXPUNGE", None))
        typ, data = m.search(None, "ALL")
        print("after move", data[0].decode())
        typ, data = m.store("1:2", "+FLAGS.SILENT", r"(\Deleted)")
        typ, data = m.uid("SEARCH", "DELETED")
        deleted = data[0].split()
        typ, data = m.uid("EXPUNGE", deleted[1].decode())
        print("uid expunge", typ, [d.decode() for d in m.untagged_responses.pop("EXPUNGE", [])] or data)
        typ, data = m.search(None, "DELETED")
        print("still deleted", data[0].decode())
        typ, data = m.expunge()
        print("expunge", typ, data)
        typ, data = m.select("INBOX")
        print("inbox now", data)
        typ, data = m.select("Junk")
        m.store("1", "+FLAGS.SILENT", r"(\Deleted)")
        typ, data = m.close()
        print("close", typ, status(m, "Junk", "MESSAGES")["MESSAGES"])
        print("create", m.create("Projects")[0], m.create("Projects/Alpha")[0], m.create("Projects")[0])
        print("list Projects*", names(m, "Projects*"))
        print("rename", m.rename("Projects", "Work")[0], names(m, "Work*"), names(m, "Projects*"))
        typ, data = m.select("Work/Alpha")
        print("select renamed", typ, data)
        m.close()
        print("delete", m.delete("Work/Alpha")[0], m.delete("Work")[0], names(m, "Work*"), m.delete("Work")[0])
        print("subscribe", m.subscribe("Sent")[0], m.subscribe("Archive/2026")[0])
        def subscribed():
            typ, data = m.lsub('""', "*")
            return [re.match(rb'\(.*?\) "." (.*)', l).group(1).decode().strip('"') for l in data if l]
        print("lsub", "Sent" in subscribed(), "Archive/2026" in subscribed())
        print("unsubscribe", m.unsubscribe("Sent")[0])
        print("lsub", "Sent" in subscribed(), "Archive/2026" in subscribed())
        typ, data = m.select("No/Such/Folder")
        print("select missing", typ)
        print("logout", m.logout()[0])
        """#

    /// Two sessions on one INBOX, the second logged in by AUTHENTICATE PLAIN: each sees the
    /// other's STORE (a FETCH on NOOP) and EXPUNGE.
    static let twoSessions = prelude + #"""
        a = imaplib.IMAP4(host, port, timeout=30); a.login(user, "secret"); a.select("INBOX")
        b = imaplib.IMAP4(host, port, timeout=30)
        print("b authenticate plain", b.authenticate("PLAIN", lambda _: ("\0%s\0secret" % user).encode())[0])
        b.select("INBOX")
        a.store("2", "+FLAGS", r"(\Flagged)")
        b.noop()
        print("b sees store", [(f.split()[0].decode(), flagset(f)) for f in b.untagged_responses.pop("FETCH", [])])
        a.store("4", "+FLAGS.SILENT", r"(\Deleted)")
        b.noop()
        print("b sees deleted", [(f.split()[0].decode(), flagset(f)) for f in b.untagged_responses.pop("FETCH", [])])
        typ, data = a.expunge()
        print("a expunge", data)
        b.noop()
        print("b sees expunge", b.untagged_responses.pop("EXPUNGE", None))
        typ, data = b.search(None, "ALL")
        print("b now", data[0].decode())
        b.store("1", "-FLAGS", r"(\Seen)")
        a.noop()
        print("a sees store", [(f.split()[0].decode(), flagset(f)) for f in a.untagged_responses.pop("FETCH", [])])
        a.logout(); b.logout()
        """#

    /// IDLE by raw commands: it prints `idling` once the server has invited it to go on, then waits
    /// for the `* n EXISTS` of a message the test delivers, sends DONE and reads the new message.
    static let idle = prelude + #"""
        m = imaplib.IMAP4(host, port, timeout=30)
        m.login(user, "secret")
        typ, data = m.select("INBOX")
        print("selected", data[0].decode())
        m.send(b"I1 IDLE\r\n")
        line = m.readline()
        print("continuation", line.startswith(b"+"))
        print("idling", flush=True)
        # The test delivers a message now; the server must say so without being asked again.
        while True:
            line = m.readline()
            if not line:
                print("closed"); break
            told = re.match(rb"\* (\d+) EXISTS", line)
            if told:
                print("told", line.decode().strip()); break
        m.send(b"DONE\r\n")
        while True:
            line = m.readline()
            if line.startswith(b"I1 "):
                print("done", line.split()[1].decode()); break
        typ, data = m.fetch(told.group(1).decode(), "(BODY.PEEK[HEADER.FIELDS (SUBJECT)])")
        print("new", data[0][1].decode().strip())
        m.logout()
        """#

    /// One login over `MODE` (`plain`, `starttls`, `implicit`) with `CA` (`-`: none) as `USER`
    /// with `PASSWORD`: LOGIN, then AUTHENTICATE PLAIN if LOGIN was refused; a refusal prints its
    /// response code (RFC 5530), `-` when there is none.
    static let login = #"""
        import imaplib, ssl, sys
        mode, host, port, ca, user, password = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], sys.argv[6]
        context = ssl.create_default_context(cafile=ca) if ca != "-" else None
        def attempt(name, action):
            try:
                print(name, action()[0])
            except imaplib.IMAP4.error as error:
                text = str(error)
                code = text[text.index("[") + 1:text.index("]")] if "[" in text else "-"
                print(name, "refused", code)
        if mode == "implicit":
            m = imaplib.IMAP4_SSL(host, port, ssl_context=context, timeout=30)
        else:
            m = imaplib.IMAP4(host, port, timeout=30)
            if mode == "starttls":
                # Not LOGINDISABLED: Dovecot counts a loopback connection as secure and offers LOGIN.
                print("starttls offered", "STARTTLS" in m.capabilities)
                print("starttls", m.starttls(ssl_context=context)[0])
            else:
                print("starttls offered", "STARTTLS" in m.capabilities, "logindisabled", "LOGINDISABLED" in m.capabilities)
        print("logindisabled now", "LOGINDISABLED" in m.capabilities, "auth=plain", "AUTH=PLAIN" in m.capabilities)
        attempt("login", lambda: m.login(user, password))
        if m.state != "AUTH":
            attempt("authenticate plain", lambda: m.authenticate("PLAIN", lambda _: ("\0%s\0%s" % (user, password)).encode()))
        if m.state == "AUTH":
            typ, data = m.select("INBOX")
            print("select", typ, data[0].decode())
        print("logout", m.logout()[0])
        """#

    /// Runs `script` with `arguments` (strings) under python3.
    static func run(_ script: String, _ arguments: [String]) throws -> Tools.Result {
        try Tools.run("python3", ["-c", script] + arguments, timeout: 60)
    }
}
