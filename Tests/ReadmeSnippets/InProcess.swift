import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServerTesting
import Testing

@Test func inProcess() async throws {
    try await withHTTPMockServer { server in
        server.stubRequest("GET", "/v1/me").andReturn(200).withBody("Ada")
        let session = try server.makeInProcessSession(hosts: ["api.example.com"])
        let (data, _) = try await session.data(from: URL(string: "https://api.example.com/v1/me")!)
        #expect(String(decoding: data, as: UTF8.self) == "Ada")
        #expect(server.hitCount("GET", "/v1/me") == 1)
    }
}
