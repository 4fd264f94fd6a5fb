import Foundation
import Testing
import TestSupport
import MockServer

/// The file system as every path over HTTP sees it: one entity tag and one modification time per
/// file for `GET`, `HEAD`, `«webdav»`'s `PROPFIND` and `«propfind»`, and the script's file commands
/// on the paths their requests name.
@Suite("One file system behind every WebDAV path", .offPool)
struct WebDAVFileSystemTests {
    static let script = """
        {"scheme": "webdav",
         "files": {"/file.txt": "Hello\\n", "/folder/": ""},
         "responses": {
            "listing": {"pattern": "^PROPFIND \\\\S+\\\\?command ", "commands": ["«propfind»"]},
            "mkdir": {"pattern": "^MKCOL (\\\\S+)\\\\?command ",
                      "commands": [{"mkdir": "$1", "otherwise": [{"response": {"status": "405 Method Not Allowed"}}]}, {"response": {"status": "201 Created"}}]},
            "move": {"pattern": "^MOVE (\\\\S+)\\\\?command ",
                     "commands": [{"move": "$1", "to": "${header:Destination}", "otherwise": [{"response": {"status": "404 Not Found"}}]}, {"response": {"status": "201 Created"}}]},
            "delete": {"pattern": "^DELETE (\\\\S+)\\\\?command ",
                       "commands": [{"delete": "$1", "otherwise": [{"response": {"status": "404 Not Found"}}]}, {"response": {"status": "204 No Content"}}]},
            "dav": {"pattern": "^\\\\S+ ", "commands": ["«webdav»"]}
         }}
        """

    /// 2030-01-01T00:00:00Z: no fixed date in any renderer can pass for it.
    static let clock = Date(timeIntervalSince1970: 1_893_456_000)

    private func start() throws -> MockServer {
        let server = try MockServer(script: ResponseScript(json: Self.script), configuration: MockServer.Configuration(clock: { Self.clock }))
        try server.start()
        return server
    }

    private static func header(_ name: String, in head: String) -> String? {
        head.split(separator: "\r\n").first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
            .map { $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces) }
    }

    private static func element(_ name: String, in body: String) -> String? {
        body.components(separatedBy: "<D:\(name)>").dropFirst().first.map { String($0.prefix { $0 != "<" }).replacingOccurrences(of: "&quot;", with: "\"") }
    }

    @Test("GET, HEAD, PROPFIND and «propfind» give one file the same ETag and its real modification time", .enabled(if: Tools.hasCurl))
    func oneETag() throws {
        let server = try start()
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/file.txt"
        let get = try Tools.curl(["-sS", "-D", "-", "-o", "/dev/null", url]).stdout
        let head = try Tools.curl(["-sS", "-I", url]).stdout
        let propfind = try Tools.curl(["-sS", "-X", "PROPFIND", "-H", "Depth: 0", url]).stdout
        let command = try Tools.curl(["-sS", "-X", "PROPFIND", "-H", "Depth: 0", url + "?command"]).stdout
        let tag = try #require(Self.header("ETag", in: get), "\(get)")
        #expect(Self.header("ETag", in: head) == tag)
        #expect(Self.element("getetag", in: propfind) == tag, "\(propfind)")
        #expect(Self.element("getetag", in: command) == tag, "\(command)")
        #expect(Self.header("Last-Modified", in: get) == "Tue, 01 Jan 2030 00:00:00 GMT")
        #expect(Self.element("getlastmodified", in: command) == "Tue, 01 Jan 2030 00:00:00 GMT", "\(command)")
        #expect(Self.element("getlastmodified", in: propfind) == "Tue, 01 Jan 2030 00:00:00 GMT")
    }

    @Test("mkdir, move and delete commands act on the decoded paths their requests name, absolute Destination URIs included", .enabled(if: Tools.hasCurl))
    func fileCommands() throws {
        let server = try start()
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        func status(_ arguments: [String]) throws -> String { try Tools.curl(["-sS", "-o", "/dev/null", "-w", "%{http_code}"] + arguments).stdout }
        #expect(try status(["-X", "MKCOL", "\(base)/new%20folder?command"]) == "201")
        #expect(try status(["-X", "MKCOL", "\(base)/new%20folder/?command"]) == "405")
        #expect(try status(["-X", "MOVE", "-H", "Destination: \(base)/new%20folder/moved.txt", "\(base)/file.txt?command"]) == "201")
        #expect(try status(["-X", "MOVE", "-H", "Destination: /elsewhere.txt", "\(base)/file.txt?command"]) == "404")
        #expect(server.files.keys.sorted() == ["/folder/", "/new folder/", "/new folder/moved.txt"])
        #expect(server.files["/new folder/moved.txt"] == Data("Hello\n".utf8))
        let listing = try Tools.curl(["-sS", "-X", "PROPFIND", "-H", "Depth: 1", "\(base)/new%20folder/"]).stdout
        #expect(Self.element("getlastmodified", in: listing) == "Tue, 01 Jan 2030 00:00:00 GMT", "\(listing)")
        #expect(try status(["-X", "DELETE", "\(base)/new%20folder?command"]) == "204")
        #expect(try status(["-X", "DELETE", "\(base)/new%20folder?command"]) == "404")
        #expect(server.files.keys.sorted() == ["/folder/"])
    }
}
