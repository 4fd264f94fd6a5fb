import Testing
@testable import MockServer
@testable @_spi(Framing) import MockServerCore
@testable @_spi(Framing) import MockServerHTTP
@testable import MockServerScript
@testable import MockServerWebDAV
@testable import MockServerFileSystem

/// The server's files as a WebDAV tree: listings at each depth, folders implied by paths, changes.
@Suite("WebDAV tree")
struct WebDAVTreeTests {
    static let files: [String: [UInt8]] = [
        "/a.txt": Array("aaa".utf8),
        "/docs/b.json": Array("{}".utf8),
        "/docs/deep/c.bin": [0, 1],
        "/empty/": [],
        "plain.txt": Array("no slash".utf8),
        "/x&y <z>.txt": [],
    ]

    private func hrefs(_ path: String, _ depth: WebDAVTree.Depth) -> [String]? {
        guard let body = WebDAVTree(files: Self.files).multistatus(for: path, depth: depth) else { return nil }
        return String(decoding: body, as: UTF8.self).components(separatedBy: "<D:href>").dropFirst().map {
            String($0.prefix { $0 != "<" })
        }
    }

    @Test("depth 0 is the item alone, depth 1 adds its children, infinity everything below")
    func depths() {
        #expect(hrefs("/", .zero) == ["/"])
        #expect(hrefs("/", .one) == ["/", "/a.txt", "/docs/", "/empty/", "/plain.txt", "/x&amp;y &lt;z&gt;.txt"])
        #expect(hrefs("/docs", .one) == ["/docs/", "/docs/b.json", "/docs/deep/"])
        #expect(hrefs("/docs/", .infinity) == ["/docs/", "/docs/b.json", "/docs/deep/", "/docs/deep/c.bin"])
        #expect(hrefs("/docs/deep/c.bin", .one) == ["/docs/deep/c.bin"])
        #expect(hrefs("/empty", .one) == ["/empty/"])
        #expect(hrefs("/missing", .one) == nil)
        #expect(hrefs("/a.txt/", .zero) == nil)
    }

    @Test("a file's size, type and an ETag that follows its content")
    func properties() throws {
        let body = String(decoding: try #require(WebDAVTree(files: Self.files).multistatus(for: "/a.txt", depth: .zero)), as: UTF8.self)
        #expect(body.contains("<D:getcontentlength>3</D:getcontentlength>"))
        #expect(body.contains("<D:getcontenttype>text/plain</D:getcontenttype>"))
        let changed = String(decoding: try #require(WebDAVTree(files: ["/a.txt": Array("bbb".utf8)]).multistatus(for: "/a.txt", depth: .zero)), as: UTF8.self)
        let etag = { (text: String) in text.components(separatedBy: "<D:getetag>").last?.prefix { $0 != "<" } }
        #expect(etag(body) != nil && etag(body) != etag(changed))
    }

    @Test("Depth headers, and targets given as absolute URIs or with a query", arguments: [
        ("0", WebDAVTree.Depth.zero), ("1", .one), (" 1 ", .one), ("infinity", .infinity), ("Infinity", .infinity), ("2", nil), ("-1", nil), ("", nil),
    ])
    func depthHeader(value: String, depth: WebDAVTree.Depth?) {
        #expect(WebDAVTree.Depth(header: value) == depth)
        #expect(WebDAVTree.Depth(header: nil) == .infinity)
    }

    @Test("request targets become tree paths")
    func targets() {
        #expect(WebDAVTree.path(ofTarget: "/docs/?x=1") == "/docs/")
        #expect(WebDAVTree.path(ofTarget: "http://127.0.0.1:8080/docs/b.json") == "/docs/b.json")
        #expect(WebDAVTree.path(ofTarget: "http://127.0.0.1:8080") == "/")
        #expect(WebDAVTree.path(ofTarget: "a.txt") == "/a.txt")
    }

    @Test("responses: 207 with a computed length, or 404")
    func responses() {
        let tree = WebDAVTree(files: Self.files)
        let found = String(decoding: HTTPResponseSerializer.serialize(tree.propfindResponse(target: "/docs/", depthHeader: "1"), for: nil).bytes, as: UTF8.self)
        let parts = found.components(separatedBy: "\r\n\r\n")
        #expect(parts[0].hasPrefix("HTTP/1.1 207 Multi-Status\r\n"))
        #expect(parts[0].contains("Content-Length: \(parts[1].utf8.count)"))
        #expect(String(decoding: HTTPResponseSerializer.serialize(tree.propfindResponse(target: "/nope", depthHeader: nil), for: nil).bytes, as: UTF8.self).hasPrefix("HTTP/1.1 404 Not Found\r\n"))
    }

    @Test("mkdir makes an empty folder unless something is there; delete removes a file or a whole folder")
    func changes() throws {
        let tree = WebDAVTree(files: Self.files)
        let made = try #require(tree.makingFolder("/new"))
        #expect(made["/new/"] == [])
        #expect(tree.makingFolder("/docs/") == nil)
        #expect(tree.makingFolder("/a.txt") == nil)
        #expect(tree.makingFolder("/") == nil)
        #expect(try #require(tree.deleting("/docs")).keys.sorted() == ["/a.txt", "/empty/", "/x&y <z>.txt", "plain.txt"])
        #expect(try #require(tree.deleting("/plain.txt")).keys.contains("plain.txt") == false)
        #expect(try #require(tree.deleting("/empty/")).keys.contains("/empty/") == false)
        #expect(tree.deleting("/missing") == nil)
    }

    @Test("copy and move: a file, a whole folder, replacing the destination; never into itself")
    func copies() throws {
        let tree = WebDAVTree(files: Self.files)
        let copied = try #require(tree.copying("/a.txt", to: "/docs/a2.txt", removingSource: false))
        #expect(copied["/a.txt"] == Array("aaa".utf8) && copied["/docs/a2.txt"] == Array("aaa".utf8))
        let moved = try #require(tree.copying("/docs", to: "/archive/", removingSource: true))
        #expect(moved.keys.sorted() == ["/a.txt", "/archive/b.json", "/archive/deep/c.bin", "/empty/", "/x&y <z>.txt", "plain.txt"])
        let replaced = try #require(tree.copying("/a.txt", to: "/plain.txt", removingSource: true))
        #expect(replaced["/plain.txt"] == Array("aaa".utf8) && replaced["plain.txt"] == nil && replaced["/a.txt"] == nil)
        let emptyFolder = try #require(tree.copying("/empty/", to: "/vacant", removingSource: false))
        #expect(emptyFolder["/vacant/"] == [] && emptyFolder["/empty/"] == [])
        #expect(tree.copying("/missing", to: "/x", removingSource: false) == nil)
        #expect(tree.copying("/docs", to: "/docs/deep/inner", removingSource: true) == nil)
        #expect(tree.copying("/a.txt", to: "/a.txt", removingSource: true) == nil)
    }
}
