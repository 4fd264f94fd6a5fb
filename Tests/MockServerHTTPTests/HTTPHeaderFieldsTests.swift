import Foundation
import Testing
import MockServerHTTP

/// Header fields: names compared without ASCII case, and nothing else folded.
@Suite("HTTP headers")
struct HTTPHeadersTests {
    @Test("names are equal without ASCII case only", arguments: [
        ("Content-Length", "content-length", true),
        ("CONTENT-LENGTH", "content-length", true),
        ("Host", "host", true),
        ("", "", true),
        ("Host", "Hos", false),
        ("@", "`", false), // 0x40 and 0x60 differ only by the case bit, but are not letters
        ("[", "{", false),
        ("X-Caf\u{E9}", "x-caf\u{E9}", true),
        ("X-Caf\u{E9}", "X-CAF\u{C9}", false), // only ASCII letters fold
        ("a-very-long-header-name-beyond-small-strings", "A-Very-Long-Header-Name-Beyond-Small-Strings", true),
        ("a-very-long-header-name-beyond-small-strings", "a-very-long-header-name-beyond-small-strinGZ", false),
    ])
    func equalsIgnoringASCIICase(left: String, right: String, equal: Bool) {
        #expect(left.equalsIgnoringASCIICase(right) == equal)
        #expect(right.equalsIgnoringASCIICase(left) == equal)
    }

    @Test("a name bridged from NSString compares the same")
    func bridged() {
        let bridged = NSString(string: "Transfer-Encoding-Long-Enough-To-Be-Stored").substring(from: 0)
        #expect(bridged.equalsIgnoringASCIICase("transfer-encoding-long-enough-to-be-stored"))
        #expect(!bridged.equalsIgnoringASCIICase("transfer-encoding-long-enough-to-be-storex"))
    }

    @Test("lookups, tokens and replacement use the folded names")
    func lookups() {
        var headers = HTTPHeaderFields()
        headers.add(name: "Connection", value: "keep-alive, Upgrade")
        headers.add(name: "X-A", value: "1")
        headers.add(name: "x-a", value: "2")
        #expect(headers["CONNECTION"] == "keep-alive, Upgrade")
        #expect(headers.hasToken("upgrade", in: "connection"))
        #expect(!headers.hasToken("close", in: "connection"))
        #expect(headers.contains("X-a") && !headers.contains("X-B"))
        headers["X-A"] = "3"
        #expect(headers.map(\.value) == ["keep-alive, Upgrade", "3"])
    }

    @Test("one header type: members are header names in any case, and a stub's request has the same headers")
    func members() {
        let headers: HTTPHeaderFields = ["Accept": "text/plain", "authorization": "Bearer t", "ACCEPT": "second"]
        #expect(headers.accept == "text/plain" && headers.Authorization == "Bearer t" && headers.missing == nil)
        #expect(headers.count == 3 && headers.fields.count == 3)
    }
}
