import Foundation
@testable import MockServerMailScript
import Testing

@Suite("The text Mailpit derives from a message: HTML's text, snippets, times, header names")
struct MailpitTextTests {
    @Test("HTML's text: tags, scripts, styles and the head dropped, entities decoded, spaces collapsed", arguments: [
        ("<p>Hello&nbsp;<b>Dana</b></p>", "Hello Dana"),
        ("<head><title>T</title><style>p { x }</style></head><body>a &amp; b &lt;c&gt; &#233;&#x2014;</body>", "a & b <c> é—"),
        ("<script>alert('<p>')</script>visible", "visible"),
        ("unclosed <b", "unclosed"),
        ("&unknown; &amp", "&unknown; &amp"),
        ("<SCRIPT>x</SCRIPT>y", "y"),
        ("shown<style>never closed <p>hidden", "shown"),
        ("a < b", "a"),
        ("&#xZZ; &#99999999;", "&#xZZ; &#99999999;"),
    ])
    func htmlText(html: String, expected: String) {
        #expect(MailpitText.text(ofHTML: html) == expected)
    }

    @Test("HTML's text takes linear time: a megabyte of unclosed scripts is read at once")
    func unclosedScripts() {
        let html = String(repeating: "<script>", count: 131_072)
        let clock = ContinuousClock(), start = clock.now
        #expect(MailpitText.text(ofHTML: html) == "")
        #expect(clock.now - start < .seconds(5))
    }

    @Test("a snippet prefers the HTML's text, keeps 200 bytes cut between characters, then ...")
    func snippets() {
        #expect(MailpitText.snippet(text: "plain\r\n text", html: nil) == "plain text")
        #expect(MailpitText.snippet(text: "plain", html: "<b>rich</b>") == "rich")
        #expect(MailpitText.snippet(text: "plain", html: "<br>") == "plain")
        #expect(MailpitText.snippet(text: nil, html: nil) == "")
        let long = String(repeating: "a", count: 199) + "é" + "tail"
        #expect(MailpitText.snippet(text: long, html: nil) == String(repeating: "a", count: 199) + "...")
        let exact = String(repeating: "b", count: 200)
        #expect(MailpitText.snippet(text: exact, html: nil) == exact)
    }

    @Test("times are RFC 3339 in UTC with milliseconds; header names as Go writes them", arguments: [
        (0.0, "1970-01-01T00:00:00.000Z"),
        (1_795_000_000.25, "2026-11-18T11:06:40.250Z"),
        (-0.5, "1969-12-31T23:59:59.500Z"),
        (951_782_400.999, "2000-02-29T00:00:00.999Z"),
    ])
    func times(seconds: Double, expected: String) {
        #expect(MailpitJSON.time(Date(timeIntervalSince1970: seconds)) == expected)
    }

    @Test("header names are written as Go's textproto writes them")
    func headerNames() {
        #expect(MailpitJSON.canonical("MESSAGE-ID") == "Message-Id")
        #expect(MailpitJSON.canonical("x-mailer") == "X-Mailer")
        #expect(MailpitJSON.canonical("dkim--signature") == "Dkim--Signature")
    }
}
