import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServerTesting
import Testing

@Test func mockData() async throws {
    try await withHTTPMockServer { server in
        // Tests/MyTests/VOKMockData/GET|-v1-me.json holds {"name":"Ada"};
        // the test target has resources: [.copy("VOKMockData")].
        try server.addMockData(named: "VOKMockData", in: .module)
        let (data, _) = try await URLSession.shared.data(from: server.url(for: "/v1/me"))
        #expect(data == Data(#"{"name":"Ada"}"#.utf8))
        let session = try server.makeInProcessSession()
        let (same, _) = try await session.data(from: server.url(for: "/v1/me"))
        #expect(same == data)
    }
}
