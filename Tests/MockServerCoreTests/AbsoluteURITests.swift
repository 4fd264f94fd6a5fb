import Testing
import MockServerCore

/// Absolute-form request targets lose their scheme and authority; anything else is left alone.
@Suite("Absolute URI targets")
struct AbsoluteURITests {
    @Test("what follows the authority", arguments: [
        ("http://host/a/b?q=1", "/a/b?q=1"),
        ("https://user:pw@host:8443/x#frag", "/x#frag"),
        ("http://host", "/"),
        ("http://host?query", "/"),
        ("http://[::1]:80/v6", "/v6"),
        ("/plain/path", "/plain/path"),
        ("/a://b/c", "/a://b/c"), // a path with "://" inside is a path
        ("relative/path", "relative/path"),
        ("*", "*"),
        ("host:21", "host:21"),
        ("://host/x", "://host/x"), // no scheme
        ("http:/one-slash", "http:/one-slash"),
        ("", ""),
    ])
    func pathOnward(target: String, expected: String) {
        #expect(AbsoluteURI.pathOnward(of: target[...]) == expected[...])
    }
}
