import Foundation
import Testing
@testable import MockServerHTTP
@testable import MockServerWebDAV
@testable import MockServerFileSystem

/// The WebDAV handler on its own: one request at a time against files and state in memory.
@Suite("WebDAV handler")
struct WebDAVHandlerTests {
    /// Files and WebDAV state that requests change, with a clock a test moves.
    struct Server {
        var files: [String: [UInt8]] = ["/file.txt": Array("0123456789".utf8), "/folder/": [], "/folder/inner.txt": Array("in".utf8)]
        var times = FileTimes(origin: Date(timeIntervalSince1970: 1_704_110_400))
        var state = WebDAVState()
        var now = Date(timeIntervalSince1970: 1_704_110_400)

        mutating func send(_ method: String, _ target: String, _ headers: [String: String] = [:], body: String = "", host: String = "x",
                           extraHeaders: String = "", asPropfind: Bool = false) -> HTTPMockResponse {
            var text = "\(method) \(target) HTTP/1.1\r\nHost: \(host)\r\n"
            for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
            text += extraHeaders + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
            var handler = WebDAVHandler(request: HTTPMockRequest(parsing: Array(text.utf8))!, files: files, times: times, state: state, now: now)
            let response = asPropfind ? handler.respond(as: "PROPFIND") : handler.respond()
            files = handler.files
            times = handler.times
            state = handler.state
            return response
        }
    }

    private func text(_ response: HTTPMockResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    @Test("paths: a bad escape or a fragment in the target is refused (FilePathsTests has the paths themselves)")
    func paths() {
        var server = Server()
        // %00 never reaches a handler: the parser refuses it (HTTPSyntax.checkTarget). A bad escape
        // passes the parser and is the handler's own 400.
        #expect(HTTPMockRequest(parsing: Array("GET /a%00 HTTP/1.1\r\nHost: x\r\n\r\n".utf8)) == nil)
        #expect(server.send("GET", "/a%zz").status == 400)
        #expect(server.send("DELETE", "/folder/#frag").status == 400)
        #expect(server.files["/folder/"] != nil)
    }

    @Test("a stored name is decoded once: PUT /a%2541 stores /a%41, which GET /a%2541 reads and PROPFIND lists, and /aA is not there")
    func storedNameDecodedOnce() {
        var server = Server()
        #expect(server.send("PUT", "/a%2541", body: "percent").status == 201)
        #expect(server.files["/a%41"] == Array("percent".utf8))
        #expect(text(server.send("GET", "/a%2541")) == "percent")
        #expect(server.send("GET", "/aA").status == 404)
        #expect(text(server.send("PROPFIND", "/", ["Depth": "1"])).contains("<D:href>/a%2541</D:href>"))
    }

    @Test("GET and HEAD: collections answer, ranges give 206 and 416, conditions give 304 and 412")
    func reading() {
        var server = Server()
        #expect(server.send("HEAD", "/folder/").status == 200)
        #expect(text(server.send("GET", "/folder")).contains("<a href=\"/folder/inner.txt\">inner.txt</a>"))
        let whole = server.send("GET", "/file.txt")
        let tag = whole.headers["ETag"] ?? ""
        #expect(whole.status == 200 && tag.hasPrefix("\"") && whole.headers["Last-Modified"] == "Mon, 01 Jan 2024 12:00:00 GMT")
        let part = server.send("GET", "/file.txt", ["Range": "bytes=2-4"])
        #expect(part.status == 206 && text(part) == "234" && part.headers["Content-Range"] == "bytes 2-4/10")
        #expect(text(server.send("GET", "/file.txt", ["Range": "bytes=-3"])) == "789")
        #expect(text(server.send("GET", "/file.txt", ["Range": "bytes=7-"])) == "789")
        #expect(text(server.send("GET", "/file.txt", ["Range": "bytes=8-100"])) == "89")
        let outside = server.send("GET", "/file.txt", ["Range": "bytes=10-"])
        #expect(outside.status == 416 && outside.headers["Content-Range"] == "bytes */10")
        #expect(server.send("GET", "/file.txt", ["Range": "bytes=0-1,4-5"]).status == 200)
        #expect(server.send("GET", "/file.txt", ["Range": "bytes=0-1", "If-Range": "\"stale\""]).status == 200)
        #expect(server.send("GET", "/file.txt", ["If-None-Match": tag]).status == 304)
        #expect(server.send("GET", "/file.txt", ["If-Match": "\"other\""]).status == 412)
        #expect(server.send("GET", "/file.txt", ["If-Modified-Since": "Mon, 01 Jan 2024 12:00:00 GMT"]).status == 304)
        #expect(server.send("GET", "/file.txt", ["If-Modified-Since": "Sun, 31 Dec 2023 12:00:00 GMT"]).status == 200)
        #expect(server.send("GET", "/file.txt", ["If-Unmodified-Since": "Sun, 31 Dec 2023 12:00:00 GMT"]).status == 412)
        // A change moves the tag and the date.
        server.now += 60
        #expect(server.send("PUT", "/file.txt", ["If-Match": tag], body: "new").status == 204)
        #expect(server.send("GET", "/file.txt", ["If-None-Match": tag]).status == 200)
        #expect(server.send("GET", "/file.txt").headers["Last-Modified"] == "Mon, 01 Jan 2024 12:01:00 GMT")
        #expect(server.send("PUT", "/file.txt", ["If-Match": tag], body: "again").status == 412)
        #expect(server.send("PUT", "/fresh.txt", ["If-None-Match": "*"], body: "1").status == 201)
        #expect(server.send("PUT", "/fresh.txt", ["If-None-Match": "*"], body: "2").status == 412)
    }

    @Test("changes: the status codes of RFC 4918 for parents, collections, bodies and overwrites")
    func changes() {
        var server = Server()
        #expect(server.send("PUT", "/missing/a.txt", body: "x").status == 409)
        #expect(server.send("PUT", "/folder", body: "x").status == 405)
        #expect(server.send("MKCOL", "/a/b/").status == 409)
        #expect(server.send("MKCOL", "/file.txt").status == 405)
        #expect(server.send("MKCOL", "/new/", body: "<x/>").status == 415)
        #expect(server.send("MKCOL", "/new/").status == 201)
        #expect(server.send("MKCOL", "/new/").status == 405)
        #expect(server.send("COPY", "/folder/", ["Destination": "http://x/copy/"]).status == 201)
        #expect(server.files["/copy/inner.txt"] == Array("in".utf8))
        #expect(server.send("COPY", "/folder/", ["Destination": "/copy/", "Overwrite": "F"]).status == 412)
        #expect(server.send("COPY", "/folder/", ["Destination": "/copy/"]).status == 204)
        #expect(server.send("COPY", "/folder/", ["Destination": "/folder/sub/"]).status == 403)
        #expect(server.send("COPY", "/folder/", ["Destination": "/nowhere/x/"]).status == 409)
        #expect(server.send("COPY", "/folder/", ["Destination": "/shallow/", "Depth": "0"]).status == 201)
        #expect(server.files["/shallow/"] != nil && server.files["/shallow/inner.txt"] == nil)
        #expect(server.send("MOVE", "/copy/", ["Destination": "/moved/"]).status == 201)
        #expect(server.files["/copy/inner.txt"] == nil && server.files["/moved/inner.txt"] == Array("in".utf8))
        #expect(server.send("MOVE", "/nothing", ["Destination": "/x"]).status == 404)
        #expect(server.send("MOVE", "/file.txt").status == 400)
        #expect(server.send("DELETE", "/moved/").status == 204)
        #expect(server.files.keys.allSatisfy { !$0.hasPrefix("/moved") })
        #expect(server.send("DELETE", "/moved/").status == 404)
        #expect(server.send("BREW", "/pot").status == 405)
    }

    @Test("properties: dead ones set, read, removed and moved; live ones protected; bad XML refused")
    func properties() {
        var server = Server()
        let set = """
            <?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:set><D:prop><Z:color>red &amp; <Z:b>bold</Z:b></Z:color>\
            <plain xmlns="">p</plain></D:prop></D:set><D:remove><D:prop><Z:gone/></D:prop></D:remove></D:propertyupdate>
            """
        let patched = server.send("PROPPATCH", "/file.txt", body: set)
        #expect(patched.status == 207 && text(patched).contains("HTTP/1.1 200 OK"))
        let find = #"<?xml version="1.0"?><propfind xmlns="DAV:"><prop><color xmlns="urn:z"/><plain xmlns=""/><missing xmlns="urn:z"/></prop></propfind>"#
        let found = text(server.send("PROPFIND", "/file.txt", ["Depth": "0"], body: find))
        #expect(found.contains(#"<color xmlns="urn:z">red &amp; <b xmlns="urn:z">bold</b></color>"#), "\(found)")
        #expect(found.contains(#"<plain xmlns="">p</plain>"#))
        #expect(found.contains(#"<missing xmlns="urn:z"/></D:prop><D:status>HTTP/1.1 404 Not Found"#))
        #expect(server.send("MOVE", "/file.txt", ["Destination": "/renamed.txt"]).status == 201)
        #expect(text(server.send("PROPFIND", "/renamed.txt", ["Depth": "0"], body: find)).contains(#"<plain xmlns="">p</plain>"#))
        let protected = #"<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><D:getetag>x</D:getetag><D:note>n</D:note></D:prop></D:set></D:propertyupdate>"#
        let refused = text(server.send("PROPPATCH", "/renamed.txt", body: protected))
        #expect(refused.contains("HTTP/1.1 403 Forbidden") && refused.contains("HTTP/1.1 424 Failed Dependency"))
        #expect(server.send("PROPFIND", "/", body: "<propfind xmlns=\"DAV:\"><allprop></propfind>").status == 400)
        #expect(server.send("PROPFIND", "/", body: #"<D:propfind xmlns:D="DAV:"><D:prop><bar:foo xmlns:bar=""/></D:prop></D:propfind>"#).status == 400)
        #expect(server.send("PROPFIND", "/", ["Depth": "1"]).status == 207)
        let names = text(server.send("PROPFIND", "/renamed.txt", ["Depth": "0"], body: #"<propfind xmlns="DAV:"><propname/></propfind>"#))
        #expect(names.contains("<D:getetag/>") && names.contains(#"<plain xmlns=""/>"#))
    }

    private let exclusive = #"<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>me</D:owner></D:lockinfo>"#
    private let shared = #"<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:shared/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>"#

    @Test("locks: tokens, 423 without them, If headers, shared and exclusive scopes, refresh, timeout, unlock")
    func locks() throws {
        var server = Server()
        let locked = server.send("LOCK", "/folder/", ["Timeout": "Second-60"], body: exclusive)
        let header = try #require(locked.headers["Lock-Token"])
        let token = String(header.dropFirst().dropLast())
        #expect(locked.status == 200 && token.hasPrefix("opaquelocktoken:") && text(locked).contains("<D:owner>me</D:owner>"))
        #expect(server.send("PUT", "/folder/inner.txt", body: "x").status == 423)
        #expect(server.send("PUT", "/folder/new.txt", body: "x").status == 423)
        #expect(server.send("DELETE", "/folder/").status == 423)
        #expect(server.send("MOVE", "/folder/inner.txt", ["Destination": "/out.txt"]).status == 423)
        #expect(server.send("COPY", "/folder/inner.txt", ["Destination": "/out.txt"]).status == 201)
        #expect(server.send("LOCK", "/folder/inner.txt", body: shared).status == 423)
        #expect(server.send("PUT", "/folder/inner.txt", ["If": "(<\(token)>)"], body: "x").status == 204)
        #expect(server.send("PUT", "/folder/inner.txt", ["If": "(<opaquelocktoken:bogus>)"], body: "x").status == 412)
        #expect(server.send("PUT", "/folder/inner.txt", ["If": "(<\(token)>) (Not <DAV:no-lock>)"], body: "y").status == 204)
        #expect(server.send("PUT", "/folder/inner.txt", ["If": "</folder/> (<\(token)>)"], body: "z").status == 204)
        #expect(server.send("PUT", "/folder/inner.txt", ["If": "(<\(token)"], body: "x").status == 400)
        #expect(server.send("PUT", "/file.txt", ["If": "(<DAV:no-lock>)"], body: "x").status == 412)
        #expect(server.send("PUT", "/file.txt", ["If": "(Not <DAV:no-lock>)"], body: "x").status == 204)
        #expect(server.send("UNLOCK", "/folder/", ["Lock-Token": "<opaquelocktoken:bogus>"]).status == 409)
        #expect(server.send("LOCK", "/folder/", ["If": "(<\(token)>)", "Timeout": "Second-120"]).status == 200)
        #expect(server.state.locks.first?.timeout == 120)
        // The lock runs out 120 seconds after its refresh.
        server.now += 121
        #expect(server.send("PUT", "/folder/inner.txt", body: "late").status == 204)
        #expect(server.state.locks.isEmpty)
        // Shared locks coexist; an exclusive one does not join them; LOCK on an unmapped URL makes an empty file.
        let first = server.send("LOCK", "/file.txt", body: shared)
        #expect(first.status == 200 && server.send("LOCK", "/file.txt", body: shared).status == 200)
        #expect(server.send("LOCK", "/file.txt", body: exclusive).status == 423)
        #expect(server.send("LOCK", "/unmapped.txt", body: exclusive).status == 201 && server.files["/unmapped.txt"] == [])
        let firstToken = String(try #require(first.headers["Lock-Token"]).dropFirst().dropLast())
        #expect(server.send("UNLOCK", "/file.txt", ["Lock-Token": "<\(firstToken)>"]).status == 204)
        #expect(server.state.locks.count == 2)
        #expect(text(server.send("PROPFIND", "/file.txt", ["Depth": "0"])).contains("<D:lockscope><D:shared/></D:lockscope>"))
    }

    @Test("If headers parse lists, tags, Not and entity tags, and refuse malformed ones")
    func ifHeaders() {
        let header = WebDAVIfHeader(#"</a> (<opaquelocktoken:1> ["e1"]) (Not <DAV:no-lock>)"#)
        #expect(header?.lists.count == 2)
        #expect(header?.lists.first?.resource == "/a")
        #expect(header?.lists.first?.conditions == [.init(negated: false, subject: .token("opaquelocktoken:1")), .init(negated: false, subject: .etag("\"e1\""))])
        #expect(header?.submittedTokens == ["opaquelocktoken:1"])
        for bad in ["", "()", "(<x>", "<a>", "(foo)", "([x)"] { #expect(WebDAVIfHeader(bad) == nil, "\(bad)") }
    }
}
