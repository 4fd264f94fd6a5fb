import Foundation
import MockServerMail
@testable import MockServerMailScript
import Testing

@Suite("Mailpit's search syntax, read without a server")
struct MailpitSearchTests {
    @Test("words split at spaces outside quotes, the quotes dropped", arguments: [
        ("to:dana subject:\"a b\"  c", ["to:dana", "subject:a b", "c"]),
        ("\"open quote", ["open quote"]),
        ("", []),
        ("   ", []),
        ("x\"y z\"w", ["xy zw"]),
    ])
    func words(query: String, expected: [String]) {
        #expect(MailpitSearch.words(of: query) == expected)
    }

    @Test("each word's condition: prefixes in any case, - and ! negate, empty values and lone signs ask for nothing")
    func terms() {
        typealias Term = MailpitSearch.Term
        #expect(MailpitSearch("To:Dana -FROM:ann !subject:x").terms == [
            Term(condition: .address(field: "to", text: "dana"), excluded: false),
            Term(condition: .address(field: "from", text: "ann"), excluded: true),
            Term(condition: .subject("x"), excluded: true),
        ])
        #expect(MailpitSearch("is:unread -is:unread is:read").terms.map(\.excluded) == [true, false, false])
        #expect(MailpitSearch("to: - subject: <>").terms == [Term(condition: .text("-"), excluded: false)])
        #expect(MailpitSearch("larger:2mb smaller:1.5k larger:huge").terms.map(\.condition) == [.larger(2 << 20), .smaller(1536), .text("larger:huge")])
        // A size past Int's range is the largest there is, not a trap.
        #expect(MailpitSearch("larger:1e300 smaller:99999999999999999999kb").terms.map(\.condition) == [.larger(Int.max), .smaller(Int.max)])
        #expect(MailpitSearch("<Dana@Example.NET>").terms.map(\.condition) == [.text("dana@example.net")])
    }

    @Test("a transaction meets every term: addresses with names, Bcc from the envelope, bodies, sizes, read marks")
    func matching() {
        let raw = Data("From: Ann <ann@example.com>\r\nTo: dana@example.net\r\nSubject: Résumé\r\n\r\nSee attached.\r\n".utf8)
        let transaction = MailTransaction(envelope: MailEnvelope(sender: "ann@example.com", recipients: ["dana@example.net", "hr@example.org"], origin: .seed(path: "x")),
                                          raw: raw, time: Date())
        func finds(_ query: String, read: Bool = false) -> Bool { MailpitSearch(query).matches(transaction, isRead: read) }
        #expect(finds("from:\"ann\" to:dana@example.net"))
        #expect(finds("subject:résumé") && finds("subject:RÉSUMÉ") && finds("attached"))
        #expect(finds("bcc:hr@") && !finds("to:hr@") && finds("addressed:hr@"))
        #expect(!finds("from:dana") && finds("-from:dana") && !finds("-attached"))
        #expect(finds("is:unread") && !finds("is:read") && finds("is:read", read: true))
        #expect(finds("smaller:1k") && !finds("larger:1k") && !finds("has:attachment"))
        #expect(finds(""))
    }
}
