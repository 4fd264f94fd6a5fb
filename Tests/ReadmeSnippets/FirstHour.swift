import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServerTesting
import Testing

// Runs unchanged in an iOS, tvOS, visionOS or macOS test target, and on Linux: no program to
// start, no path outside the test bundle. Each test has its own mock: they run in parallel.

struct Profile: Codable, Equatable { var name: String }

@Test func jsonInProcess() async throws {                              // 1. a JSON API, in-process
    try await withHTTPMockServer { server in
        server.stubRequest("GET", "/v1/me").andReturn(200).withJSON(Profile(name: "Ada"))
        let session = try server.makeInProcessSession()                // a URLProtocol: no socket
        let (data, response) = try await session.data(from: server.url(for: "/v1/me"))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(try JSONDecoder().decode(Profile.self, from: data) == Profile(name: "Ada"))
    }
}

@Test func jsonOverASocket() async throws {                            // 2. the same, over a socket
    try await withHTTPMockServer { server in
        server.stubRequest("GET", "/v1/me").andReturn(200).withJSON(Profile(name: "Ada"))
        let session = URLSession(configuration: .ephemeral)
        let (data, _) = try await session.data(from: server.url(for: "/v1/me"))  // http://127.0.0.1:PORT/v1/me
        #expect(try JSONDecoder().decode(Profile.self, from: data) == Profile(name: "Ada"))
    }
}

@Test func httpsThroughURLSession() async throws {                     // 3. HTTPS
    try await withHTTPMockServer { server in
        server.stubRequest("POST", "/v1/login").andReturn(201).withJSON(["token": "abc"])
        // https:// for the app's own host, in-process: no certificate to trust, no DNS.
        let session = try server.makeInProcessSession(hosts: ["api.example.com"])
        var login = URLRequest(url: try #require(URL(string: "https://api.example.com/v1/login")))
        login.httpMethod = "POST"
        let (data, response) = try await session.data(for: login)
        #expect((response as? HTTPURLResponse)?.statusCode == 201)
        #expect(data == Data(#"{"token":"abc"}"#.utf8))
    }
}

@Test(.enabled(if: URLSessionWebSockets.areAvailable, "this system's URLSession cannot open WebSockets (Linux: a libcurl without ws)"))
func webSocketConversation() async throws {                            // 4. a WebSocket conversation
    try await withHTTPMockServer { server in
        server.stubRequest("GET", "/chat").andUpgradeToWebSocket { socket in
            for try await message in socket.messages { try await socket.send(.text("echo: \(message)")) }
        }
        let url = try #require(URL(string: "ws://127.0.0.1:\(server.port)/chat"))
        let socket = URLSession(configuration: .ephemeral).webSocketTask(with: url)
        socket.resume()
        try await socket.send(.string("hi"))
        guard case .string(let echo) = try await socket.receive() else { throw URLError(.cannotDecodeContentData) }
        #expect(echo == "echo: hi")
        socket.cancel(with: .normalClosure, reason: nil)
    }
}

@Test func aResetAndASlowAnswer() async throws {                       // 5. failure paths
    try await withHTTPMockServer { server in
        server.stubRequest("GET", "/v1/feed").andReturn(200).withFault(.reset)        // a TCP reset
        server.stubRequest("GET", "/v1/slow").andReturn(200).withDelay(.seconds(10))  // later than the client waits
        let session = try server.makeInProcessSession()                // Apple's URLError codes, on Linux too
        do {
            _ = try await session.data(from: server.url(for: "/v1/feed"))
            Issue.record("the reset went unnoticed")
        } catch let error as URLError {
            #expect(error.code == .networkConnectionLost)
        }
        do {
            _ = try await session.data(for: URLRequest(url: server.url(for: "/v1/slow"), timeoutInterval: 0.5))
            Issue.record("the slow answer did not time out")
        } catch let error as URLError {
            #expect(error.code == .timedOut)
        }
    }
}

@Test func replayARecording() async throws {                           // 6. a recording, from the bundle
    try await withHTTPMockServer { server in
        // Tests/MyTests/VOKMockData/GET|-v1-me.json, recorded or written by hand; resources: [.copy("VOKMockData")].
        try server.addMockData(named: "VOKMockData", in: .module)
        let session = try server.makeInProcessSession()
        let (data, _) = try await session.data(from: server.url(for: "/v1/me"))
        #expect(try JSONDecoder().decode(Profile.self, from: data) == Profile(name: "Ada"))
    }
}
