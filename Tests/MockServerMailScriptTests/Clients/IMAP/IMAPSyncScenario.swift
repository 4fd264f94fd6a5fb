import Foundation
import Testing
import TestSupport

/// The two-way sync the sync clients' suites (mbsync, offlineimap) run: the seed synced down to a
/// local Maildir; then changes on both sides (locally: a message marked seen, one deleted, one
/// moved to another folder, a draft written; on the server: a flag set, a message expunged, one
/// appended, one moved by UID MOVE); then a second sync, after which both sides must hold the
/// same messages with the same flags: ``afterChanges``.
///
/// Each side is summed up as sorted lines `FOLDER|SUBJECT|FLAGS`, FLAGS as Maildir letters
/// (`D`raft, `F`lagged, `R`eplied, `S`een, `T`rashed), so that a server and a Maildir compare.
enum IMAPSyncScenario {
    /// The server's side, by IMAP: every selectable folder's messages, their subjects and flags.
    static let summaryScript = #"""
        import imaplib, re, sys
        host, port, user = sys.argv[1], int(sys.argv[2]), sys.argv[3]
        LETTERS = {"\\Draft": "D", "\\Flagged": "F", "\\Answered": "R", "\\Seen": "S", "\\Deleted": "T"}
        m = imaplib.IMAP4(host, port, timeout=30)
        m.login(user, "secret")
        rows = []
        for line in m.list('""', "*")[1]:
            attributes, name = re.match(rb'\((.*?)\) "." (.*)', line).groups()
            if b"\\Noselect" in attributes or b"\\NonExistent" in attributes:
                continue
            name = name.decode().strip('"')
            count = int(m.select('"%s"' % name, readonly=True)[1][0])
            if count:
                typ, data = m.fetch("1:*", "(FLAGS BODY.PEEK[HEADER.FIELDS (SUBJECT)])")
                for item in data:
                    if isinstance(item, tuple):
                        flags = re.search(rb"FLAGS \((.*?)\)", item[0]).group(1).decode().split()
                        subject = item[1].decode().strip().removeprefix("Subject: ")
                        rows.append("%s|%s|%s" % (name, subject, "".join(sorted(LETTERS.get(f, "") for f in flags))))
            m.close()
        print("\n".join(sorted(rows)))
        m.logout()
        """#

    /// The server-side changes, by IMAP.
    static let serverChangesScript = #"""
        import imaplib, re, sys
        host, port, user = sys.argv[1], int(sys.argv[2]), sys.argv[3]
        m = imaplib.IMAP4(host, port, timeout=30)
        m.login(user, "secret")
        def uid(subject):
            typ, data = m.uid("SEARCH", "SUBJECT", '"%s"' % subject)
            return data[0].split()[0].decode()
        m.select("INBOX")
        m.uid("STORE", uid("Lunch on Friday"), "+FLAGS", r"(\Flagged)")
        m.uid("STORE", uid("Question about the trip"), "+FLAGS", r"(\Deleted)")
        m.expunge()
        m.append("INBOX", "()", None, b"From: Bob <bob@example.com>\r\nTo: ann@example.com\r\nSubject: Arrived on the server\r\n\r\nNew.\r\n")
        m.select("Archive/2026")
        print("move", m.uid("MOVE", uid("January plans"), "Trash")[0])
        m.logout()
        """#

    /// The seed's messages of ann, summed up.
    static var seeded: [String] {
        IMAPSeed.messages.filter { $0.address == IMAPSeed.ann }
            .map { "\($0.folder.isEmpty ? "INBOX" : $0.folder)|\(subject(of: $0.raw))|\($0.flags)" }.sorted()
    }

    /// Both sides once the changes are synced.
    static let afterChanges = [
        "Archive/2026|February plans|RS",
        "Archive|Urgent: keys|FS",
        "Drafts|Thanks|DS",
        "Drafts|Written offline|D",
        "INBOX|=?UTF-8?Q?Gr=C3=BC=C3=9Fe_aus_K=C3=B6ln?=|",
        "INBOX|Arrived on the server|",
        "INBOX|Fwd: Lunch on Friday|",
        "INBOX|Lunch on Friday|FS",
        "INBOX|Quarterly report|S",
        "INBOX|Re: Question about the trip|DS",
        "INBOX|The CV you asked for|S",
        "Junk|You won|",
        "Sent|Re: Lunch on Friday|S",
        "Trash|January plans|S",
    ]

    /// The server's side now.
    static func server(_ server: IMAPTestServer) throws -> [String] {
        let result = try Tools.run("python3", ["-c", summaryScript, server.host, String(server.port), IMAPSeed.ann])
        guard result.status == 0 else { throw IMAPServerUnderTestError("the summary failed: \(result.stderr)") }
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// Makes the server-side changes.
    static func changeServer(_ server: IMAPTestServer) throws {
        let result = try Tools.run("python3", ["-c", serverChangesScript, server.host, String(server.port), IMAPSeed.ann])
        guard result.stdout == "move OK\n" else { throw IMAPServerUnderTestError("the server changes failed: \(result.stdout)\(result.stderr)") }
    }

    /// The local side now: every Maildir under `root` (a folder with `cur/`), named by its path
    /// under `root` with `/` between levels.
    static func maildir(_ root: URL) throws -> [String] {
        var lines: [String] = []
        for folder in try maildirs(under: root) {
            for sub in ["cur", "new"] {
                let directory = root.appendingPathComponent(folder).appendingPathComponent(sub)
                for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where !name.hasPrefix(".") {
                    let raw = String(decoding: try Data(contentsOf: directory.appendingPathComponent(name)), as: UTF8.self)
                    let flags = name.range(of: ":2,").map { String(name[$0.upperBound...].filter { "DFRST".contains($0) }.sorted()) } ?? ""
                    lines.append("\(folder)|\(subject(of: raw))|\(flags)")
                }
            }
        }
        return lines.sorted()
    }

    /// Makes the local changes in the Maildirs under `root`: the unseen "Quarterly report" seen,
    /// "Old newsletter" deleted from Trash, "Urgent: keys" moved from INBOX to Archive (under a
    /// name without the client's UID, as a mail program moving it would), a draft written.
    static func changeMaildir(_ root: URL) throws {
        let files = FileManager.default
        let report = try file(root, "INBOX", "Quarterly report")
        let base = report.lastPathComponent.components(separatedBy: ":2,")[0]
        try files.moveItem(at: report, to: root.appendingPathComponent("INBOX/cur/\(base):2,S"))
        try files.removeItem(at: try file(root, "Trash", "Old newsletter"))
        let urgent = try file(root, "INBOX", "Urgent: keys")
        let moved = urgent.lastPathComponent.replacingOccurrences(of: #",U=[0-9]+"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #",FMD5=[0-9a-f]+"#, with: "", options: .regularExpression)
        try files.moveItem(at: urgent, to: root.appendingPathComponent("Archive/cur/\(moved)"))
        let draft = "From: Ann <ann@example.com>\r\nTo: bob@example.com\r\nSubject: Written offline\r\n\r\nOn the train.\r\n"
        try Data(draft.utf8).write(to: root.appendingPathComponent("Drafts/cur/1795000000.M1P1.offline:2,D"))
    }

    /// The file of the message `subject` in `folder` under `root`.
    private static func file(_ root: URL, _ folder: String, _ subject: String) throws -> URL {
        for sub in ["cur", "new"] {
            let directory = root.appendingPathComponent(folder).appendingPathComponent(sub)
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
                let url = directory.appendingPathComponent(name)
                if Self.subject(of: String(decoding: try Data(contentsOf: url), as: UTF8.self)) == subject { return url }
            }
        }
        throw IMAPServerUnderTestError("no message \"\(subject)\" in \(folder) under \(root.path)")
    }

    /// The folders under `root` that are Maildirs, as relative paths.
    private static func maildirs(under root: URL) throws -> [String] {
        var found: [String] = []
        var pending = [""]
        while let relative = pending.popLast() {
            let directory = relative.isEmpty ? root : root.appendingPathComponent(relative)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("cur").path, isDirectory: &isFolder), isFolder.boolValue { found.append(relative) }
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where !["cur", "new", "tmp"].contains(name) && !name.hasPrefix(".") {
                var isDirectory: ObjCBool = false
                let child = relative.isEmpty ? name : relative + "/" + name
                if FileManager.default.fileExists(atPath: root.appendingPathComponent(child).path, isDirectory: &isDirectory), isDirectory.boolValue { pending.append(child) }
            }
        }
        return found
    }

    /// A raw message's Subject field, as it is (encoded words left encoded).
    static func subject(of raw: String) -> String {
        // Split at LF alone: a Swift string holds CRLF as one character, which "\n" does not match.
        let lines = raw.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n")
        let line = lines.first { $0.hasPrefix("Subject: ") } ?? ""
        return String(line.dropFirst(9)).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
