import Testing
import MockServerFileSystem

/// Paths as protocols hand them to the file system: decoded once, dot segments resolved, never
/// above the root.
@Suite("File paths")
struct FilePathsTests {
    @Test("request targets: decoded, dot segments resolved, never above the root; NUL and bad escapes refused")
    func targets() {
        #expect(FilePaths.path(ofTarget: "/a/./b/../c%20d/") == "/a/c d/")
        #expect(FilePaths.path(ofTarget: "/../../etc/passwd") == "/etc/passwd")
        #expect(FilePaths.path(ofTarget: "http://host:80/x%e2%82%ac?q=1") == "/x€")
        #expect(FilePaths.path(ofTarget: "/a%00b") == nil)
        #expect(FilePaths.path(ofTarget: "/a%zz") == nil)
    }

    @Test("targets given as absolute URIs, with a query, or without a leading /")
    func targetForms() {
        #expect(FilePaths.path(ofTarget: "/docs/?x=1") == "/docs/")
        #expect(FilePaths.path(ofTarget: "http://127.0.0.1:8080/docs/b.json") == "/docs/b.json")
        #expect(FilePaths.path(ofTarget: "http://127.0.0.1:8080") == "/")
        #expect(FilePaths.path(ofTarget: "a.txt") == "/a.txt")
    }

    @Test("dot segments resolved, empty ones dropped, never above the root; a trailing / stays when something is left",
          arguments: [("", "/"), ("/", "/"), ("//", "/"), ("a", "/a"), ("/a", "/a"), ("a/", "/a/"), ("a//b", "/a/b"), ("/a/./b/", "/a/b/"),
                      ("/a/b/..", "/a"), ("/a/b/../", "/a/"), ("/a/../..", "/"), ("/../a", "/a"), ("../", "/"), ("./", "/"), (".", "/"),
                      ("a/.", "/a"), ("a/./", "/a/"), ("/.a/..b/.../c", "/.a/..b/.../c"), ("/a/b/c/../../d", "/a/d"), ("/a/../b/./../c/", "/c/"),
                      ("/x€/../y", "/y"), ("/x€/./y/", "/x€/y/"), ("/a/\u{301}/..", "/"), ("/a/\u{301}b", "/a/\u{301}b")])
    func resolved(path: String, expected: String) {
        #expect(FilePaths.resolved(path) == expected)
    }

    @Test("hrefs percent-encode all but unreserved bytes and /")
    func hrefs() {
        #expect(FilePaths.href("/x€ y/") == "/x%E2%82%AC%20y/")
        #expect(FilePaths.href("/x&y <z>.txt") == "/x%26y%20%3Cz%3E.txt")
    }

    @Test("folder, file, parent and last segment of a path")
    func parts() {
        #expect(FilePaths.folder("/a") == "/a/" && FilePaths.folder("/a/") == "/a/")
        #expect(FilePaths.file("/a/") == "/a" && FilePaths.file("/") == "/")
        #expect(FilePaths.parent("/a/b/") == "/a/" && FilePaths.parent("/a") == "/" && FilePaths.parent("/") == "/")
        #expect(FilePaths.lastSegment("/a/b/") == "b")
    }
}
