import Foundation
import Testing
@testable import MockServerHTTP
@testable import MockServerWebDAV

/// What the handler does with the numbers, origins and nesting a client puts on the wire: checked
/// before use, refused naming the culprit, never trapping.
@Suite("WebDAV handler: values from the wire")
struct WebDAVWireValuesTests {
    private func text(_ response: HTTPMockResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    @Test("Depth is 0, 1 or infinity on every method, given once; anything else is 400 naming the header")
    func depth() {
        var server = WebDAVHandlerTests.Server()
        for method in ["PROPFIND", "GET", "DELETE", "COPY", "LOCK"] {
            for bad in ["2", "-1", "01", "infinite", "1,1", "99999999999999999999"] {
                let response = server.send(method, "/folder/", ["Depth": bad, "Destination": "/elsewhere/"])
                #expect(response.status == 400 && text(response) == "the Depth header \"\(bad)\" is not 0, 1 or infinity\n", "\(method) \(bad): \(text(response))")
            }
        }
        #expect(server.files["/folder/inner.txt"] != nil && server.files["/elsewhere/"] == nil)
        #expect(server.send("PROPFIND", "/folder/", ["Depth": " Infinity "]).status == 207)
        let repeated = server.send("PROPFIND", "/", [:], extraHeaders: "Depth: 0\r\nDepth: infinity\r\n")
        #expect(repeated.status == 400 && text(repeated) == "the Depth header is given 2 times: 0, infinity\n")
        #expect(text(server.send("MOVE", "/file.txt", ["Depth": "0", "Destination": "/m.txt"])) == "the Depth header of a MOVE is infinity, not 0\n")
        #expect(text(server.send("COPY", "/file.txt", ["Depth": "1", "Destination": "/m.txt"])) == "the Depth header of a COPY is 0 or infinity, not 1\n")
        #expect(WebDAVDepth(header: "2") == nil && WebDAVDepth(header: nil) == .infinity)
        let listing = server.send("GET", "/", ["Depth": "2"], asPropfind: true)
        #expect(listing.status == 400 && text(listing) == "the Depth header \"2\" is not 0, 1 or infinity\n")
    }

    @Test("Timeout: Second-N clamped to 2^32 - 1 however long, Infinite, the first option taken, others refused with 400", arguments: [
        ("Second-60", 60 as Int??), ("second-99999999999999999999", Int(UInt32.max)), ("Second-9223372036854775807", Int(UInt32.max)),
        ("Second-9223372036854775808", Int(UInt32.max)), ("Second-4294967295", 4_294_967_295), ("Infinite, Second-4100000000", .some(nil)),
        ("Second-0, Second-5", 5), ("Second-0", 3600), ("Second-", nil), ("Second--5", nil), ("Second-+5", nil), ("Second-1e3", nil),
        ("Extend", nil), ("Second-60, Bogus", nil),
    ])
    func timeout(header: String, seconds: Int??) throws {
        var server = WebDAVHandlerTests.Server()
        let lockinfo = #"<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>"#
        let response = server.send("LOCK", "/file.txt", ["Timeout": header], body: lockinfo)
        guard let seconds else {
            #expect(response.status == 400 && text(response).hasPrefix("the Timeout header \"\(header)\" is not a list of Second-N and Infinite: "), "\(text(response))")
            #expect(server.state.locks.isEmpty)
            return
        }
        #expect(response.status == 200, "\(text(response))")
        #expect(server.state.locks.first?.timeout == seconds)
        #expect(text(response).contains("<D:timeout>\(seconds.map { "Second-\($0)" } ?? "Infinite")</D:timeout>"))
        // The lock is still there a day later, unless it was asked for a minute.
        server.now += 86_400
        #expect(server.send("PUT", "/file.txt", body: "x").status == (seconds.map { $0 < 86_400 } ?? false ? 204 : 423))
    }

    @Test("Range positions: digits only, past Int.max saturated, never trapping", arguments: [
        ("bytes=0-9223372036854775807", 206, "0123456789"), ("bytes=0-99999999999999999999", 206, "0123456789"),
        ("bytes=9223372036854775807-", 416, ""), ("bytes=99999999999999999999-", 416, ""), ("bytes=-9223372036854775807", 206, "0123456789"),
        ("bytes=-99999999999999999999", 206, "0123456789"), ("bytes=+1-2", 200, "0123456789"), ("bytes=1-+2", 200, "0123456789"),
        ("bytes= 1-2", 206, "12"), ("bytes=-0", 416, ""), ("bytes=3-2", 200, "0123456789"),
    ])
    func ranges(header: String, status: Int, body: String) {
        var server = WebDAVHandlerTests.Server()
        let response = server.send("GET", "/file.txt", ["Range": header])
        #expect(response.status == status && (status == 416 || text(response) == body), "\(header): \(response.status) \(text(response))")
        #expect(WebDAVHandler.decimal("9223372036854775807") == Int.max && WebDAVHandler.decimal("18446744073709551616") == Int.max)
        #expect(WebDAVHandler.decimal("") == nil && WebDAVHandler.decimal("-1") == nil && WebDAVHandler.decimal("007") == 7)
    }

    @Test("COPY and MOVE to another server are 502 naming the Destination and change nothing", arguments: [
        "http://elsewhere/copy.txt", "http://x:81/copy.txt", "ftp://x/copy.txt", "https://x:80/copy.txt", "http://user@x/copy.txt", "http://x:8o/copy.txt",
    ])
    func foreignDestination(destination: String) {
        for method in ["COPY", "MOVE"] {
            var server = WebDAVHandlerTests.Server()
            let before = server.files
            let response = server.send(method, "/folder/", ["Destination": destination])
            #expect(response.status == 502, "\(method) \(destination): \(text(response))")
            #expect(text(response).hasPrefix("the Destination \(destination) is on another server ("), "\(text(response))")
            #expect(server.files == before)
        }
    }

    @Test("a Destination whose .. segments climb above the root, or that holds %00, is 400 as nginx refuses it, and changes nothing; .. that stays inside is followed", arguments: [
        ("/../../tmp/pwned", "climbs above the root (a .. segment)"), ("/%2e%2e/%2E%2E/tmp/pwned", "climbs above the root (a .. segment)"),
        ("/folder/../../x", "climbs above the root (a .. segment)"), ("http://x/../x", "climbs above the root (a .. segment)"),
        ("/..%2fx", "climbs above the root (a .. segment)"), ("/a%00b", "holds %00"),
    ])
    func climbingDestination(destination: String, problem: String) {
        for method in ["COPY", "MOVE"] {
            var server = WebDAVHandlerTests.Server()
            let before = server.files
            let response = server.send(method, "/file.txt", ["Destination": destination])
            #expect(response.status == 400 && text(response) == "the Destination \(destination) is refused: its path \(problem)\n", "\(method) \(destination): \(text(response))")
            #expect(server.files == before)
        }
        var server = WebDAVHandlerTests.Server()
        #expect(server.send("COPY", "/file.txt", ["Destination": "/folder/../inside.txt"]).status == 201)
        #expect(server.files["/inside.txt"] != nil)
    }

    @Test("Overwrite is T or F in either case; another value is 400 naming it and changes nothing", arguments: ["maybe", "TRUE", "0", "T F"])
    func overwriteValues(value: String) {
        var server = WebDAVHandlerTests.Server()
        let before = server.files
        let response = server.send("COPY", "/file.txt", ["Destination": "/copy.txt", "Overwrite": value])
        #expect(response.status == 400 && text(response) == "the Overwrite header is T or F (RFC 4918 section 10.6), not \"\(value)\"\n", "\(text(response))")
        #expect(server.files == before)
        #expect(server.send("COPY", "/file.txt", ["Destination": "/folder/inner.txt", "Overwrite": "f"]).status == 412)
        #expect(server.send("COPY", "/file.txt", ["Destination": "/folder/inner.txt", "Overwrite": " t "]).status == 204)
    }

    @Test("COPY within the server: a path, or an absolute URI with the request's host, port and scheme")
    func ownDestination() {
        var server = WebDAVHandlerTests.Server()
        #expect(server.send("COPY", "/file.txt", ["Destination": "http://X:80/a.txt"]).status == 201)
        #expect(server.send("COPY", "/file.txt", ["Destination": "https://x/b.txt"]).status == 201)
        #expect(server.send("COPY", "/file.txt", ["Destination": "/c.txt"]).status == 201)
        #expect(server.send("COPY", "http://x:8080/file.txt", ["Destination": "http://x:8080/d.txt"], host: "x:8080").status == 201)
        let otherScheme = server.send("COPY", "http://x:8080/file.txt", ["Destination": "https://x:8080/e.txt"], host: "x:8080")
        #expect(otherScheme.status == 502 && text(otherScheme).contains("(https://x:8080) than the request's (http://x:8080)"), "\(text(otherScheme))")
        #expect(server.send("COPY", "/file.txt", ["Destination": "http://[::1]:8080/f.txt"], host: "[::1]:8080").status == 201)
        #expect(server.send("COPY", "/file.txt", ["Destination": "http://[::1]:8081/g.txt"], host: "[::1]:8080").status == 502)
        for relative in ["h.txt", "//x/h.txt", "./h.txt"] {
            let response = server.send("COPY", "/file.txt", ["Destination": relative])
            #expect(response.status == 400 && text(response) == "the Destination \(relative) is neither an absolute URI nor an absolute path\n")
        }
        #expect(server.files.keys.sorted() == ["/a.txt", "/b.txt", "/c.txt", "/d.txt", "/f.txt", "/file.txt", "/folder/", "/folder/inner.txt"])
    }

    @Test("a PROPFIND, PROPPATCH or LOCK body nested deeper than 256 elements is 400 naming the limit", arguments: ["PROPFIND", "PROPPATCH", "LOCK"])
    func nesting(method: String) {
        var server = WebDAVHandlerTests.Server()
        // 1,000 deep: past the limit, as a handler sees it. XMLReaderTests and WebDAVHostileClientTests send
        // 100,000 deep (about 1.7 MB, scanned whole before parsing: some 1.8 s of CPU a body in a debug build).
        let body = String(decoding: XMLReaderTests.nested(1_000), as: UTF8.self)
        let response = server.send(method, "/file.txt", body: body)
        #expect(response.status == 400)
        #expect(text(response) == "the \(method) body is refused: XML nesting deeper than the limit of 256 elements (line 1)\n")
        #expect(server.state.locks.isEmpty && server.state.properties.isEmpty)
    }
}
