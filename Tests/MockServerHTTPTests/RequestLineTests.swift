import Testing
@testable import MockServerHTTP

@Suite("Request line")
struct RequestLineTests {
    private func words(_ line: String) -> [String]? {
        HTTPRequestParser.threeWords(Array(line.utf8)[...]).map { words in
            [words.0, words.1, words.2].map { (word: ArraySlice<UInt8>) in String(decoding: word, as: UTF8.self) }
        }
    }

    @Test("three words, a run of spaces counting as one", arguments: [
        ("GET / HTTP/1.1", ["GET", "/", "HTTP/1.1"]),
        ("GET  /a?b=c   HTTP/1.0", ["GET", "/a?b=c", "HTTP/1.0"]),
        (" PUT /x HTTP/1.1 ", ["PUT", "/x", "HTTP/1.1"]),
    ])
    func threeWords(line: String, expected: [String]) {
        #expect(words(line) == expected)
    }

    @Test("anything but three words is refused", arguments: ["", " ", "GET", "GET /", "GET / HTTP/1.1 more", "GET\t/ HTTP/1.1"])
    func notThree(line: String) {
        #expect(words(line) == nil)
    }

    @Test("a Host value is a name or an address: no space, control character, slash or backslash, no dot first or after a dot", arguments: [
        ("example.com", true), ("127.0.0.1:8080", true), ("[::1]:80", true), ("", true), ("a.b.", true),
        (".example", false), ("a..b", false), ("a b", false), ("a/b", false), ("a\\b", false), ("a\u{7F}", false), ("a\tb", false), ("..", false),
    ])
    func host(value: String, accepted: Bool) {
        #expect(((try? HTTPSyntax.checkHost(Array(value.utf8)[...])) != nil) == accepted)
    }
}
