import Foundation
import MockServerMail
import Testing
import TestSupport

/// Our FETCH responses read by another implementation: PyPI's IMAPClient, whose parser reads
/// ENVELOPE, BODY and BODYSTRUCTURE (issue 52's acceptance names it).
@Suite("IMAP FETCH responses read by IMAPClient", .offPool, .enabled(if: Tools.hasPythonModule("imapclient")))
struct IMAPFetchIMAPClientTests {
    /// IMAPClient's parser over `* n FETCH (ENVELOPE … BODY … BODYSTRUCTURE …)` of every fixture:
    /// one line per message: its number, subject, From names, part count, and whether BODY agrees.
    static let reader = #"""
        import sys
        from imapclient.response_parser import parse_fetch_response
        data = open(sys.argv[1], 'rb').read()
        for response in data.split(b'\x00\n'):
            # imaplib's shape: literals as (head, data) pairs, the rest as bytes.
            items, rest = [], response
            while b'{' in rest:
                head, _, tail = rest.partition(b'{')
                size, _, tail = tail.partition(b'}\r\n')
                items.append((head + b'{' + size + b'}', tail[:int(size)]))
                rest = tail[int(size):]
            items.append(rest)
            for number, fields in parse_fetch_response(items).items():
                envelope = fields[b'ENVELOPE']
                names = [address.name for address in envelope.from_ or ()]
                structure = fields[b'BODYSTRUCTURE']
                parts = len(structure[0]) if structure.is_multipart else 1
                print(number, repr(envelope.subject), repr(names), parts,
                      fields[b'BODY'].is_multipart == structure.is_multipart)
        """#

    @Test("Every fixture's ENVELOPE, BODY and BODYSTRUCTURE parse, strings as Dovecot's literals read")
    func everyFixture() throws {
        var responses: [UInt8] = []
        var count = 0
        for folder in ["corpus", "imap"] {
            let directory = IMAPFetchDovecotTests.fixtures.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() where name.hasSuffix(".eml") {
                let raw = try Data(contentsOf: directory.appendingPathComponent(name))
                let summary = IMAPMessageSummary(raw: raw)
                count += 1
                var output = IMAPOutput()
                output.text("\(count) (")
                for (index, item) in [IMAPFetchAttribute.envelope, .body, .bodyStructure].enumerated() {
                    if index > 0 { output.byte(0x20) }
                    #expect(IMAPMessageContent().write(item, raw: raw, summary: summary, to: &output) == nil)
                }
                output.text(")")
                if !responses.isEmpty { responses += [0, 0x0A] }
                responses += output.bytes
            }
        }
        let directory = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("responses")
        try Data(responses).write(to: file)
        let script = directory.appendingPathComponent("read.py")
        try Data(Self.reader.utf8).write(to: script)
        let result = try Tools.run("python3", [script.path, file.path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == count)
        #expect(lines.allSatisfy { $0.hasSuffix(" True") })
        // 44-envelope.eml: Dovecot sends these two as literals, we quote them with escapes; IMAPClient
        // reads the same bytes from both.
        #expect(lines.contains(#"35 b'=?utf-8?b?SGVqIHDDpSBkaWc=?= "quoted" \\ back' [b'=?utf-8?q?J=C3=B6rg?=', b'Quote " and \\ back'] 1 True"#))
        #expect(lines.contains(#"20 b'Display names' [b'Doe, John (Sales)'] 1 True"#))
        #expect(lines.contains(#"32 b'Nested parts' [b'Ola Nordmann'] 3 True"#))
    }
}
