import Foundation
import Testing
import TestSupport

/// PyPI's `IMAPClient`, whose own parser reads FETCH responses, ENVELOPE and BODYSTRUCTURE,
/// through a long read-only session over every seeded folder and message (LIST, SELECT, FETCH of
/// FLAGS, ENVELOPE, BODYSTRUCTURE, RFC822.SIZE, INTERNALDATE and a header section, SEARCH): what
/// it parsed from each server under test must equal what it parsed from Dovecot on the same seed.
@Suite("IMAPClient parses every seeded message's ENVELOPE and BODYSTRUCTURE alike from each server", .offPool,
       .enabled(if: Tools.hasPythonModule("imapclient") && Dovecot.hasIMAP, "needs PyPI's imapclient and dovecot-imapd"))
struct IMAPClientParsingTests {
    /// The session: it prints each parsed value as plain Python data (named tuples as their fields,
    /// bytes as text), messages by sequence number (two servers need not number UIDs alike).
    static let session = #"""
        import sys
        from imapclient import IMAPClient
        host, port, user = sys.argv[1], int(sys.argv[2]), sys.argv[3]
        def plain(value):
            """A parsed value as plain data: IMAPClient's Envelope and Address named tuples, bytes, lists."""
            if hasattr(value, "_asdict"):
                return {k: plain(v) for k, v in value._asdict().items()}
            if isinstance(value, (list, tuple)):
                return [plain(v) for v in value]
            if isinstance(value, bytes):
                return value.decode("utf-8", "replace")
            if hasattr(value, "is_multipart"):
                return plain(list(value))
            return value
        client = IMAPClient(host, port=port, ssl=False, timeout=30)
        client.login(user, "secret")
        # Sequence numbers, not UIDs: two servers need not number UIDs alike.
        client.use_uid = False
        print("namespace", plain(client.namespace()))
        folders = sorted(name for flags, delimiter, name in client.list_folders())
        print("folders", folders)
        print("special", sorted((name, [f.decode() for f in flags if f.decode().lower() in ("\\sent", "\\drafts", "\\trash", "\\junk", "\\archive")]) for flags, d, name in client.list_folders()))
        for folder in folders:
            info = client.select_folder(folder, readonly=True)
            # The system flags: a server may list keywords too (ours: $Forwarded).
            print("folder", folder, info[b"EXISTS"], sorted(f.decode() for f in info[b"FLAGS"] if f.startswith(b"\\")))
            fetched = client.fetch(list(range(1, info[b"EXISTS"] + 1)), ["FLAGS", "ENVELOPE", "BODYSTRUCTURE", "RFC822.SIZE", "INTERNALDATE", "BODY.PEEK[HEADER.FIELDS (SUBJECT)]"])
            for number in sorted(fetched):
                data = fetched[number]
                print(" message", number)
                print("  flags", sorted(f.decode() for f in data[b"FLAGS"] if f != b"\\Recent"))
                print("  size", data[b"RFC822.SIZE"], "internaldate", data[b"INTERNALDATE"].isoformat())
                print("  envelope", plain(data[b"ENVELOPE"]))
                print("  bodystructure", plain(data[b"BODYSTRUCTURE"]))
                print("  subject header", plain(data[b"BODY[HEADER.FIELDS (SUBJECT)]"]))
            for criteria in (["UNSEEN"], ["FROM", "bob"], ["TEXT", "noon"]):
                print(" search", criteria, client.search(criteria))
            client.unselect_folder()
        client.logout()
        print("logged out")
        """#

    /// The session's lines against `server`.
    static func parsed(by server: IMAPTestServer) throws -> (lines: [String], result: Tools.Result) {
        let result = try Tools.run("python3", ["-c", session, server.host, String(server.port), IMAPSeed.ann], timeout: 60)
        return (result.stdout.split(separator: "\n").map(String.init), result)
    }

    @Test("IMAPClient's parsed session equals Dovecot's, and holds what the seed says", arguments: IMAPServerUnderTest.tested)
    func sameAsDovecot(server: IMAPServerUnderTest) throws {
        let seed = try IMAPSeed.make()
        let running = try server.start(seed: seed)
        defer { running.stop() }
        let session = try Self.parsed(by: running)
        #expect(session.result.status == 0, "\(server): \(session.result.stderr)")
        let lines = session.lines
        #expect(lines.first == "namespace [[['', '/']], None, None]")
        #expect(lines.contains("folders ['Archive', 'Archive/2026', 'Drafts', 'INBOX', 'Junk', 'Sent', 'Trash']"))
        #expect(lines.contains(#"special [('Archive', ['\\Archive']), ('Archive/2026', []), ('Drafts', ['\\Drafts']), ('INBOX', []), ('Junk', ['\\Junk']), ('Sent', ['\\Sent']), ('Trash', ['\\Trash'])]"#))
        #expect(lines.filter { $0.hasPrefix(" message ") }.count == IMAPSeed.messages.filter { $0.address == IMAPSeed.ann }.count)
        #expect(lines.contains(#"  bodystructure [[['text', 'plain', ['charset', 'utf-8'], None, None, 'quoted-printable', 34, 1, None, None, None, None], ['application', 'pdf', ['name*', "utf-8''R%C3%A9sum%C3%A9%202026.pdf"], None, None, 'base64', 42, None, ['attachment', ['filename*', "utf-8''R%C3%A9sum%C3%A9%202026.pdf"]], None, None]], 'mixed', ['boundary', 'outer-boundary'], None, None, None]"#),
                "the attachment's BODYSTRUCTURE, its RFC 2231 parameters as they are in the header")
        #expect(lines.contains { $0.hasPrefix("  envelope Envelope(") && $0.contains("subject=b'=?UTF-8?Q?Gr=C3=BC=C3=9Fe_aus_K=C3=B6ln?='") },
                "ENVELOPE's subject is the header's, encoded words and all")
        #expect(lines.suffix(4) == [" search ['UNSEEN'] []", " search ['FROM', 'bob'] []", " search ['TEXT', 'noon'] []", "logged out"])
        #expect(lines.contains(" search ['UNSEEN'] [2, 7, 8]"))
        guard server != .dovecot else { return }
        let control = try IMAPServerUnderTest.dovecot.start(seed: seed)
        defer { control.stop() }
        let reference = try Self.parsed(by: control)
        #expect(lines == reference.lines, "\(server) parsed differently from Dovecot")
    }
}
