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

    @Test("a usual request line is read in one pass, into the words the full checks find", arguments: [
        "GET / HTTP/1.1", "POST /a/b?x=1&y=%20 HTTP/1.0", "M-SEARCH * HTTP/1.1", "GET http://example.com/a HTTP/1.1", "GET /é HTTP/1.1",
        "OPTIONS * HTTP/1.1", "CONNECT example.com:443 HTTP/1.1", "GET /../a HTTP/1.1", "GET /%00 HTTP/1.1",
    ])
    func usual(line: String) throws {
        let bytes = Array(line.utf8)[...]
        let usual = try #require(HTTPRequestParser.usualRequestLine(bytes))
        let full = try #require(HTTPRequestParser.threeWords(bytes))
        #expect([usual.0, usual.1, usual.2] == [full.0, full.1, full.2])
        // What the one pass leaves out of the full checks raises nothing: only the target's form and path remain.
        try HTTPSyntax.checkRequestStart(bytes)
        #expect(!bytes.contains(0x0D))
        let fullError = Result { () throws in try HTTPSyntax.checkRequestLine(method: full.0, target: full.1, version: full.2) }
        let usualError = Result { () throws in try HTTPSyntax.checkTarget(usual.1, method: usual.0) }
        #expect(String(describing: fullError) == String(describing: usualError))
    }

    @Test("any other request line is left to the full checks", arguments: [
        "", "GET", "GET /", "GET / ", "GET  / HTTP/1.1", " GET / HTTP/1.1", "GET / HTTP/1.1 ", "GET /  HTTP/1.1", "GET\t/ HTTP/1.1",
        "GET / HTTP/1.2", "GET / HTTP/2.0", "GET / http/1.1", "GET / HTTP/1.10", "GET / HTTP/1.", "G(T / HTTP/1.1", "GET /a\u{7F} HTTP/1.1",
        "GET /a\u{01}b HTTP/1.1", "GET /\r HTTP/1.1", "GET / HTTP/1.1\r", "\u{16}\u{03}\u{01}", "PRI * HTTP/2.0",
    ])
    func unusual(line: String) {
        #expect(HTTPRequestParser.usualRequestLine(Array(line.utf8)[...]) == nil)
    }

    @Test("without a Connection field, HTTP/1.1 keeps the connection and HTTP/1.0 does not; with one, its tokens decide", arguments: [
        ("GET / HTTP/1.1\r\nHost: a\r\n\r\n", true), ("GET / HTTP/1.0\r\nHost: a\r\n\r\n", false),
        ("GET / HTTP/1.1\r\nConnection: close\r\n\r\n", false), ("GET / HTTP/1.1\r\nconnection: Upgrade, Close\r\n\r\n", false),
        ("GET / HTTP/1.1\r\nCONNECTION: keep-alive\r\n\r\n", true), ("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", true),
        ("GET / HTTP/1.0\r\nConnection: close\r\n\r\n", false), ("GET / HTTP/1.1\r\nConnections: close\r\n\r\n", true),
    ])
    func keepAlive(request: String, keeps: Bool) throws {
        var parser = HTTPRequestParser()
        parser.append(Array(request.utf8))
        #expect(try #require(try parser.next()).wantsKeepAlive == keeps)
    }

    @Test("a field line's name, and its value without the spaces and tabs around it", arguments: [
        ("Host: a", "Host", "a"), ("Host:a", "Host", "a"), ("X:  a b \t", "X", "a b"), ("X:", "X", ""), ("X:   ", "X", ""),
        ("X: \t", "X", ""), ("X:\té  ", "X", "é"), ("User-Agent: h2load nghttp2/1.59.0", "User-Agent", "h2load nghttp2/1.59.0"), ("X: a:b ", "X", "a:b"),
    ])
    func field(line: String, name: String, value: String) throws {
        let bytes = Array(line.utf8)[...]
        let field = try HTTPSyntax.field(bytes)
        #expect(String(decoding: field.name, as: UTF8.self) == name)
        #expect(String(decoding: field.value, as: UTF8.self) == value)
        // The value is a slice of the line, where the line has it (an empty one at the line's end).
        #expect(field.value.endIndex <= bytes.endIndex && (!field.value.isEmpty || field.value.startIndex == bytes.endIndex))
    }
}
