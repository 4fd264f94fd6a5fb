import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServerTesting
import Testing

// Runs unchanged in an iOS, tvOS, visionOS or macOS test target, and on Linux: no program to
// start, no path outside the test bundle. Each test has its own mock: they run in parallel.

struct Profile: Codable, Equatable { var name: String }

@Test(.httpMockServer { server in                                      // 1. a JSON API, in-process
    server.stubRequest("GET", "/v1/me").andReturn(200).withJSON(Profile(name: "Ada"))
})
func jsonInProcess() async throws {
    let server = try HTTPMockServer.current                            // this test's own mock
    let session = try server.makeInProcessSession()                    // a URLProtocol: no socket
    let (data, response) = try await session.data(from: server.url(for: "/v1/me"))
    #expect((response as? HTTPURLResponse)?.statusCode == 200)
    #expect(try JSONDecoder().decode(Profile.self, from: data) == Profile(name: "Ada"))
}

@Test(.httpMockServer { server in                                      // 2. the same, over a socket
    server.stubRequest("GET", "/v1/me").andReturn(200).withJSON(Profile(name: "Ada"))
})
func jsonOverASocket() async throws {
    let url = try HTTPMockServer.current.url(for: "/v1/me")            // http://127.0.0.1:PORT/v1/me
    let (data, _) = try await URLSession(configuration: .ephemeral).data(from: url)
    #expect(try JSONDecoder().decode(Profile.self, from: data) == Profile(name: "Ada"))
}

@Test(.httpMockServer { server in                                      // 3. HTTPS
    server.stubRequest("POST", "/v1/login").andReturn(201).withJSON(["token": "abc"])
})
func httpsThroughURLSession() async throws {
    // https:// for the app's own host, in-process: no certificate to trust, no DNS.
    let session = try HTTPMockServer.current.makeInProcessSession(hosts: ["api.example.com"])
    var login = URLRequest(url: try #require(URL(string: "https://api.example.com/v1/login")))
    login.httpMethod = "POST"
    let (data, response) = try await session.data(for: login)
    #expect((response as? HTTPURLResponse)?.statusCode == 201)
    #expect(data == Data(#"{"token":"abc"}"#.utf8))
}

@Test(.enabled(if: URLSessionWebSockets.areAvailable, "this system's URLSession cannot open WebSockets (Linux: a libcurl without ws)"),
      .httpMockServer { server in                                      // 4. a WebSocket conversation
          server.stubRequest("GET", "/chat").andUpgradeToWebSocket { socket in
              for try await message in socket.messages { try await socket.send(.text("echo: \(message)")) }
          }
      })
func webSocketConversation() async throws {
    let port = try HTTPMockServer.current.port
    let url = try #require(URL(string: "ws://127.0.0.1:\(port)/chat"))
    let socket = URLSession(configuration: .ephemeral).webSocketTask(with: url)
    socket.resume()
    try await socket.send(.string("hi"))
    guard case .string(let echo) = try await socket.receive() else { throw URLError(.cannotDecodeContentData) }
    #expect(echo == "echo: hi")
    socket.cancel(with: .normalClosure, reason: nil)
}

@Test(.httpMockServer { server in                                      // 5. failure paths
    server.stubRequest("GET", "/v1/feed").andReturn(200).withFault(.reset)        // a TCP reset
    server.stubRequest("GET", "/v1/slow").andReturn(200).withDelay(.seconds(10))  // later than the client waits
})
func aResetAndASlowAnswer() async throws {
    let server = try HTTPMockServer.current
    let session = try server.makeInProcessSession()                    // Apple's URLError codes, on Linux too
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

// 6. a recording, from the bundle: Tests/MyTests/VOKMockData/GET|-v1-me.json, recorded or written
// by hand; resources: [.copy("VOKMockData")].
@Test(.httpMockServer(mockData: "VOKMockData", in: .module))
func replayARecording() async throws {
    let server = try HTTPMockServer.current
    let (data, _) = try await server.makeInProcessSession().data(from: server.url(for: "/v1/me"))
    #expect(try JSONDecoder().decode(Profile.self, from: data) == Profile(name: "Ada"))
}
