import Testing
import MockServerHTTP
@testable import MockServerStubs

/// A stub's counts of what it answered.
@Suite("Stub hits")
struct StubHitsTests {
    @Test("requests are counted for each path as the paths come and go, the table growing between repeats of one")
    func countsByPath() throws {
        // One path again and again, others between them: enough new ones that the table grows
        // (and its places move) several times while one path keeps coming back.
        var paths: [String] = []
        for round in 0..<200 {
            paths += ["/a", "/a", "/p\(round)", "/a", "/b?x=\(round % 3)"]
        }
        var hits = StubHits()
        var expected: [String: Int] = [:]
        for (sequence, target) in paths.enumerated() {
            let request = try #require(HTTPMockRequest(parsing: Array("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n".utf8)))
            #expect(hits.add(request, sequence: sequence) == sequence)
            expected[request.path, default: 0] += 1
        }
        #expect(hits.byPath == expected)
        #expect(hits.count == paths.count)
        #expect(hits.count(forPath: "/a") == 600)
        #expect(hits.count(forPath: "/b") == 200)
        #expect(hits.first?.target == "/a" && hits.last?.target == "/b?x=1")
    }
}
