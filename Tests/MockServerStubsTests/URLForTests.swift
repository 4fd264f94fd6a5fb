import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import MockServer

/// `url(for:)` gives the URL the user meant: a query, escapes and a fragment kept (issue 27, item 2).
@Suite("url(for:)")
struct URLForTests {
    @Test("a query, percent escapes and a fragment are kept; what a part does not allow is escaped", arguments: [
        ("/search?q=a%20b", "/search?q=a%20b"),
        ("/search?q=a b&lang=en", "/search?q=a%20b&lang=en"),
        ("/a b/ü", "/a%20b/%C3%BC"),
        ("files/x.txt", "/files/x.txt"),
        ("/100%", "/100%25"),
        ("/p#part 2", "/p#part%202"),
        ("/p?x=1#top", "/p?x=1#top"),
        ("/already%2Fencoded", "/already%2Fencoded"),
    ])
    func references(path: String, expected: String) throws {
        let server = HTTPMockServer()
        try server.start()
        defer { server.stop() }
        #expect(server.url(for: path).absoluteString == "http://127.0.0.1:\(server.port)\(expected)")
    }

    @Test("a stub with a query is reached through url(for:) with the query in it")
    func stubWithQuery() async throws {
        let server = HTTPMockServer()
        server.stubRequest("GET", "/search?q=a%20b").andReturn(200).withBody("found")
        try await server.start()
        defer { server.stop() }
        let (data, response) = try await URLSession(configuration: .ephemeral).data(from: server.url(for: "/search?q=a%20b"))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(data == Data("found".utf8))
        #expect(server.unexpectedRequests.isEmpty)
    }
}
