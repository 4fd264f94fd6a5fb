import Foundation
import Testing
import MockServerHTTP

/// Field text compared in place: trimmed of spaces and tabs, ASCII letters in any case, lists split
/// at commas, media types before their parameters.
@Suite("HTTP field text")
struct HTTPFieldTextTests {
    @Test("names are equal trimmed and without ASCII case", arguments: [
        ("Connection", "connection", true),
        (" tE\t", "te", true),
        ("te", " TE ", true),
        ("", "", true),
        ("   ", "", true),
        ("te", "t", false),
        ("@", "`", false), // only letters fold
        ("X-Caf\u{E9}", "x-caf\u{E9}", true),
        ("X-Caf\u{E9}", "X-CAF\u{C9}", false),
        ("a-very-long-header-name-beyond-small-strings", " A-Very-Long-Header-Name-Beyond-Small-Strings", true),
    ])
    func equals(left: String, right: String, equal: Bool) {
        #expect(HTTPFieldText.equals(left, right) == equal)
        #expect(HTTPFieldText.equals(right, left) == equal)
        // A bridged string has no contiguous UTF-8 of its own: the copy compares the same.
        #expect(HTTPFieldText.equals(NSString(string: left).substring(from: 0), right) == equal)
    }

    @Test("a name against a list: only names of its length are compared, the name trimmed")
    func anyOf() {
        let names = ["connection", "te", "transfer-encoding"]
        #expect(HTTPFieldText.equals(" TE", anyOf: names))
        #expect(HTTPFieldText.equals("Transfer-Encoding", anyOf: names))
        #expect(!HTTPFieldText.equals("tex", anyOf: names))
        #expect(!HTTPFieldText.equals("", anyOf: names))
        #expect(!HTTPFieldText.equals("te", anyOf: []))
    }

    @Test("a name holds a fragment, the name trimmed, in any case; an empty fragment never", arguments: [
        ("X-Api-Key", "api", true),
        (" x-api-key\t", "KEY", true),
        ("Authorization", "authorization", true),
        ("Authorization", "authorizations", false),
        ("Token", "", false),
        ("", "a", false),
        (" a ", " a", false), // the fragment is not trimmed
        ("a-very-long-header-name-beyond-small-strings", "BEYOND", true),
    ])
    func contains(name: String, fragment: String, held: Bool) {
        #expect(HTTPFieldText.contains(name, fragment: fragment) == held)
        #expect(HTTPFieldText.contains(NSString(string: name).substring(from: 0), fragment: fragment) == held)
    }

    @Test("a comma-separated list has an element, trimmed, in any case; empty elements never match", arguments: [
        ("keep-alive, Upgrade", "upgrade", true),
        (" X-Gone ,keep-alive, x-ALSO ", "x-also", true),
        ("close", "close", true),
        ("closed", "close", false),
        ("clo,se", "close", false),
        ("a,,b", "", false),
        ("a, ,b", " ", false),
        ("", "close", false),
        (",close,", "CLOSE", true),
    ])
    func list(list: String, element: String, contains: Bool) {
        #expect(HTTPFieldText.list(list, contains: element) == contains)
    }

    @Test("media types compare before their parameters; JSON is application/json or +json", arguments: [
        ("application/json", true, false),
        (" Application/JSON ; charset=utf-8", true, false),
        ("application/problem+json", true, false),
        ("application/problem+JSON;x=1", true, false),
        ("+json", true, false),
        ("application/jsonx", false, false),
        ("text/plain; type=application/json", false, false),
        ("application/x-www-form-urlencoded", false, true),
        ("APPLICATION/X-WWW-FORM-URLENCODED; charset=utf-8", false, true),
        ("", false, false),
    ])
    func mediaTypes(contentType: String, json: Bool, form: Bool) {
        #expect(HTTPFieldText.isJSON(contentType) == json)
        #expect(HTTPFieldText.mediaType(of: contentType, is: "application/x-www-form-urlencoded") == form)
    }
}
