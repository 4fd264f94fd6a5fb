import Testing
import MockServerInProcess

/// The `Host` field and request target the in-process path reads off a URL, as a client sends them.
@Suite("Wire address")
struct WireAddressTests {
    @Test("host and target as the URL spells them", arguments: [
        ("http://127.0.0.1:8080/x", "127.0.0.1:8080", "/x"),
        ("http://Example.COM/a%20b/c%3Fd?q=%2F&x=%C3%A9", "Example.COM", "/a%20b/c%3Fd?q=%2F&x=%C3%A9"),
        ("http://h:80/p?x=1#part", "h", "/p?x=1"),
        ("https://h:443", "h", "/"),
        ("https://h:80/", "h:80", "/"),
        ("HTTPS://h:443/", "h", "/"),
        ("http://h:8443?only=query", "h:8443", "/?only=query"),
        ("http://h#top", "h", "/"),
        ("http://user:pa%40ss@h:9/", "h:9", "/"),
        ("http://[::1]:8080/v6", "[::1]:8080", "/v6"),
        ("http://[::1]/v6", "[::1]", "/v6"),
        ("http://h:/empty-port", "h", "/empty-port"),
        ("http://h/;v=1/%7Euser", "h", "/;v=1/%7Euser"),
    ])
    func addresses(url: String, host: String, target: String) {
        #expect(WireAddress(absoluteString: url) == WireAddress(host: host, target: target))
    }

    @Test("no host, no authority, no scheme")
    func degenerate() {
        #expect(WireAddress(absoluteString: "http:///path") == WireAddress(host: nil, target: "/path"))
        #expect(WireAddress(absoluteString: "http://user@/x") == WireAddress(host: nil, target: "/x"))
        #expect(WireAddress(absoluteString: "urn:isbn:123") == WireAddress(host: nil, target: "/isbn:123"))
        #expect(WireAddress(absoluteString: "no-colon") == WireAddress(host: nil, target: "/"))
        #expect(WireAddress(absoluteString: "") == WireAddress(host: nil, target: "/"))
    }
}
