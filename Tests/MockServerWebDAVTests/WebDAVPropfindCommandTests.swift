import Foundation
import Testing
import MockServerHTTP
import MockServerWebDAV

/// `«propfind»`: the handler's one PROPFIND renderer, whatever the request's method, with the
/// files' own times and entity tags.
@Suite("WebDAV «propfind»")
struct WebDAVPropfindCommandTests {
    private func hrefs(_ server: inout WebDAVHandlerTests.Server, _ target: String, depth: String?) -> [String]? {
        let response = server.send("GET", target, depth.map { ["Depth": $0] } ?? [:], asPropfind: true)
        guard response.status == 207 else { return nil }
        return String(decoding: response.body, as: UTF8.self).components(separatedBy: "<D:href>").dropFirst().map { String($0.prefix { $0 != "<" }) }
    }

    @Test("depth 0 is the item alone, depth 1 adds its children, infinity (or none) everything below; 404 for nothing")
    func depths() {
        var server = WebDAVHandlerTests.Server()
        server.files["/x&y <z>.txt"] = []
        #expect(hrefs(&server, "/", depth: "0") == ["/"])
        #expect(hrefs(&server, "/", depth: "1") == ["/", "/file.txt", "/folder/", "/x%26y%20%3Cz%3E.txt"])
        #expect(hrefs(&server, "/folder", depth: "1") == ["/folder/", "/folder/inner.txt"])
        #expect(hrefs(&server, "/", depth: nil) == ["/", "/file.txt", "/folder/", "/folder/inner.txt", "/x%26y%20%3Cz%3E.txt"])
        #expect(hrefs(&server, "/folder/inner.txt", depth: "1") == ["/folder/inner.txt"])
        #expect(hrefs(&server, "/missing", depth: "1") == nil && hrefs(&server, "/file.txt/x", depth: "0") == nil)
    }

    @Test("a file's length, type, entity tag and modification time: the ones GET gives, not a fixed date")
    func properties() {
        var server = WebDAVHandlerTests.Server()
        server.now = Date(timeIntervalSince1970: 1_893_456_000) // 2030-01-01
        #expect(server.send("PUT", "/file.txt", body: "changed").status == 204)
        let get = server.send("GET", "/file.txt")
        let listing = String(decoding: server.send("GET", "/file.txt", ["Depth": "0"], asPropfind: true).body, as: UTF8.self)
        #expect(listing.contains("<D:getcontentlength>7</D:getcontentlength>") && listing.contains("<D:getcontenttype>text/plain</D:getcontenttype>"))
        #expect(listing.contains("<D:getetag>\(WebDAVXMLNode.escaped(get.headers["ETag"] ?? "-"))</D:getetag>"))
        #expect(listing.contains("<D:getlastmodified>Tue, 01 Jan 2030 00:00:00 GMT</D:getlastmodified>"))
        #expect(get.headers["Last-Modified"] == "Tue, 01 Jan 2030 00:00:00 GMT")
    }

    @Test("Depth headers: 0, 1, infinity in any case and with spaces; anything else refused", arguments: [
        ("0", WebDAVDepth.zero), ("1", .one), (" 1 ", .one), ("infinity", .infinity), ("Infinity", .infinity), ("2", nil), ("-1", nil), ("", nil),
    ])
    func depthHeader(value: String, depth: WebDAVDepth?) {
        #expect(WebDAVDepth(header: value) == depth)
        #expect(WebDAVDepth(header: nil) == .infinity)
    }
}
