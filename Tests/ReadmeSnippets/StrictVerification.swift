import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServerTesting
import Testing

@Test func strictVerification() async throws {
    try await withHTTPMockServer(strict: true) { server in
        server.inOrder {
            server.stubRequest("POST", "/login").andReturn(200)
            server.stubRequest("GET", "/v1/blobs/:name").andReturn(200).withBody("blob")
        }
        var login = URLRequest(url: server.url(for: "/login"))
        login.httpMethod = "POST"
        _ = try await URLSession.shared.data(for: login)
        _ = try await URLSession.shared.data(from: server.url(for: "/v1/blobs/42"))
        #expect(server.hitCount("GET", "/v1/blobs/:name") == 1)
        #expect(server.hitCount("GET", "/v1/blobs/42") == 1)
    }
}
