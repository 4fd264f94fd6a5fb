import Testing
import MockServerHTTP
@testable import MockServerStubs

/// How a stub's target matches a request's path: segments are percent-decoded as paths are, so a
/// `+` in a path stays a `+` (only a query or a form reads it as a space).
@Suite("Stub targets")
struct StubTargetTests {
    private func request(_ target: String) throws -> HTTPMockRequest {
        try #require(HTTPMockRequest(parsing: Array("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n".utf8)))
    }

    @Test("a :name segment and pathComponents decode %XX but keep + as written; the query still reads + as a space")
    func plusInPath() throws {
        let target = StubTarget("/files/:name")
        #expect(target.match(try request("/files/a+b%20c"))?.name == "a+b c")
        let stub = Stub.Request(try request("/a+b/c%2Bd?q=x+y"))
        #expect(stub.pathComponents == ["/", "a+b", "c+d"])
        #expect(stub.queryParameters.q == "x y")
    }
}
