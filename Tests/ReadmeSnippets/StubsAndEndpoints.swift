import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServerTesting
import Testing

@Test func stubsAndEndpoints() async throws {
    try await withHTTPMockServer { server in
        server.stubRequest("POST", "/dogs.json")
            .withHeaders(["Content-Type": "application/json"])
            .withBody(#"{"name":"Rex"}"#)
            .andReturn(201)
            .withBody(#"{"id":1}"#)
        server.add(.POST, "/login") { request, cache in cache.username = request.formParameters.name; return .ok() }
        server.add(.GET, "/profile") { _, cache in .ok(json: ["username": cache.username]) }

        var dog = URLRequest(url: server.url(for: "/dogs.json"))
        dog.httpMethod = "POST"
        dog.setValue("application/json", forHTTPHeaderField: "Content-Type")
        dog.httpBody = Data(#"{"name":"Rex"}"#.utf8)
        let (created, response) = try await URLSession.shared.data(for: dog)
        #expect((response as? HTTPURLResponse)?.statusCode == 201)
        #expect(created == Data(#"{"id":1}"#.utf8))

        var login = URLRequest(url: server.url(for: "/login"))
        login.httpMethod = "POST"
        login.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        login.httpBody = Data("name=Ada".utf8)
        _ = try await URLSession.shared.data(for: login)
        let (profile, _) = try await URLSession.shared.data(from: server.url(for: "/profile"))
        #expect(profile == Data(#"{"username":"Ada"}"#.utf8))
    }
}
