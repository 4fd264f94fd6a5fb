import Foundation
import Testing
import TestSupport
import MockServer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The answers a newcomer guesses by name: each status, its headers and its body.
@Suite("Stub answers by name")
struct StubResponseStatusesTests {
    private static func text(_ response: Stub.Response) -> String { String(decoding: response.body, as: UTF8.self) }

    @Test("bare names: the status and no body", arguments: [
        (Stub.Response.ok, 200), (.created, 201), (.noContent, 204), (.badRequest, 400), (.unauthorized, 401),
        (.forbidden, 403), (.notFound, 404), (.conflict, 409), (.serverError, 500),
    ] as [(Stub.Response, Int)])
    func bare(response: Stub.Response, status: Int) {
        #expect(response.status == status && response.body.isEmpty && response.headers.count == 0)
    }

    @Test("json: the status, application/json, and the JSON text (keys sorted)", arguments: [
        (Stub.Response.created(json: ["id": 1, "name": "Rex"]), 201), (.badRequest(json: ["id": 1, "name": "Rex"]), 400),
        (.unauthorized(json: ["id": 1, "name": "Rex"]), 401), (.forbidden(json: ["id": 1, "name": "Rex"]), 403),
        (.notFound(json: ["id": 1, "name": "Rex"]), 404), (.conflict(json: ["id": 1, "name": "Rex"]), 409),
        (.unprocessable(json: ["id": 1, "name": "Rex"]), 422), (.serverError(json: ["id": 1, "name": "Rex"]), 500),
    ] as [(Stub.Response, Int)])
    func json(response: Stub.Response, status: Int) {
        #expect(response.status == status)
        #expect(response.headers["Content-Type"] == "application/json")
        #expect(Self.text(response) == #"{"id":1,"name":"Rex"}"#)
    }

    @Test("the text ones, headers, Retry-After and redirects; the older calls with parentheses still compile")
    func others() {
        let created = Stub.Response.created(json: ["id": 7], headers: ["Location": "/dogs/7"])
        #expect(created.headers.map(\.name) == ["Content-Type", "Location"] && created.headers["Location"] == "/dogs/7")
        #expect(Stub.Response.created(json: [1, nil, "x"] as [Any?]).body == Array(#"[1,null,"x"]"#.utf8))
        #expect(Stub.Response.accepted(body: "queued").status == 202 && Self.text(.accepted(body: "queued")) == "queued")
        #expect(Stub.Response.forbidden(body: "no").status == 403 && Self.text(.forbidden(body: "no")) == "no")
        #expect(Stub.Response.conflict(body: "taken").status == 409)
        #expect(Stub.Response.tooManyRequests().status == 429 && Stub.Response.tooManyRequests().headers["Retry-After"] == nil)
        #expect(Stub.Response.tooManyRequests(retryAfter: 2).headers["Retry-After"] == "2")
        #expect(Stub.Response.serviceUnavailable(retryAfter: 30).status == 503 && Stub.Response.serviceUnavailable(retryAfter: 30).headers["Retry-After"] == "30")
        #expect(Stub.Response.redirect(to: "/login").status == 302 && Stub.Response.redirect(to: "/login").headers["Location"] == "/login")
        #expect(Stub.Response.redirect(to: "https://x.test/", status: 308).status == 308)
        // The spellings with parentheses and labels are the same answers.
        #expect(Stub.Response.noContent().status == 204 && Stub.Response.noContent(headers: ["ETag": "\"1\""]).headers["ETag"] == "\"1\"")
        #expect(Stub.Response.notFound().status == 404 && Self.text(.notFound(body: "gone")) == "gone")
        #expect(Stub.Response.ok().status == 200 && Stub.Response.ok(json: [:] as [String: Int]).body == Array("{}".utf8))
        #expect(Stub.Response.serverError(body: "down").status == 500 && Stub.Response.unauthorized().status == 401)
    }

    @Test("from an endpoint closure and andReturn, served to URLSession in-process")
    func served() async throws {
        let server = HTTPMockServer()
        server.add(.POST, "/dogs") { _, _ in .created(json: ["id": 7], headers: ["Location": "/dogs/7"]) }
        server.add(.GET, "/dogs/8") { _, _ in .notFound }
        server.stubRequest("DELETE", "/dogs/7").andReturn(.noContent)
        server.stubRequest("GET", "/busy").andReturn(.tooManyRequests(retryAfter: 1))
        try await server.start()
        defer { server.stop() }
        let session = try server.makeInProcessSession()
        var post = URLRequest(url: server.url(for: "/dogs"))
        post.httpMethod = "POST"
        let (body, response) = try await session.data(for: post)
        let created = try #require(response as? HTTPURLResponse)
        #expect(created.statusCode == 201 && created.value(forHTTPHeaderField: "Location") == "/dogs/7" && body == Data(#"{"id":7}"#.utf8))
        let (_, missing) = try await session.data(from: server.url(for: "/dogs/8"))
        #expect((missing as? HTTPURLResponse)?.statusCode == 404)
        var delete = URLRequest(url: server.url(for: "/dogs/7"))
        delete.httpMethod = "DELETE"
        let (_, deleted) = try await session.data(for: delete)
        #expect((deleted as? HTTPURLResponse)?.statusCode == 204)
        let (_, busy) = try await session.data(from: server.url(for: "/busy"))
        #expect((busy as? HTTPURLResponse)?.statusCode == 429 && (busy as? HTTPURLResponse)?.value(forHTTPHeaderField: "Retry-After") == "1")
    }
}
