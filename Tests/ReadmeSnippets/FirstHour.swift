import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServerTesting
import Testing

let session = URLSession(configuration: .ephemeral)

@Test func ftpDownloadAndUpload() async throws {                       // 1. FTP
    try await withMockServer(responses: "ftp") { server in
        server.files = ["report.csv": Data("id,name\n".utf8)]
        #expect(try await session.data(from: server.url(for: "report.csv")).0 == Data("id,name\n".utf8))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("up-\(UUID()).txt")
        try Data("new".utf8).write(to: file)                           // uploaded here with curl -T
        defer { try? FileManager.default.removeItem(at: file) }
        _ = try Process.run(URL(fileURLWithPath: "/usr/bin/curl"), arguments: ["-sT", file.path, server.url(for: "up.txt").absoluteString])
        #expect(try await server.waitForUpload(named: "up.txt").data == Data("new".utf8))
    }
}

@Test func oneStub() async throws {                                    // 2. a stub
    try await withHTTPMockServer { server in
        server.stubRequest("GET", "/me").andReturn(200).withBody(#"{"name":"Ada"}"#)
        let (data, _) = try await session.data(from: server.url(for: "/me"))
        #expect(data == Data(#"{"name":"Ada"}"#.utf8))
    }
}

@Test func https() async throws {                                      // 3. HTTPS
    var configuration = MockServer.Configuration()
    configuration.tls = try .generated()                               // a test CA, a certificate for 127.0.0.1
    try await withHTTPMockServer(configuration: configuration) { server in
        server.stubRequest("GET", "/secure").andReturn(204)
        let ca = FileManager.default.temporaryDirectory.appendingPathComponent("ca-\(UUID()).pem")
        try configuration.tls?.identity.caCertificatePEM?.write(to: ca, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: ca) }
        let curl = try Process.run(URL(fileURLWithPath: "/usr/bin/curl"), arguments: ["-s", "--cacert", ca.path, server.url(for: "/secure").absoluteString])
        curl.waitUntilExit()
        #expect(curl.terminationStatus == 0)                             // the client trusts the CA
    }
}

@Test(.enabled(if: URLSessionWebSockets.areAvailable, "URLSession here has no WebSockets (a libcurl without ws)")) func webSocket() async throws {   // 4. WebSocket
    let script = try ResponseScript(json: #"{"scheme": "websocket", "responses": {"ping": {"pattern": "^ping$", "commands": ["pong"]}}}"#)
    try await withMockServer(script: script) { server in
        let socket = session.webSocketTask(with: server.url(for: "/"))
        socket.resume()
        try await socket.send(.string("ping"))
        guard case .string(let answer) = try await socket.receive() else { throw URLError(.cannotDecodeContentData) }
        #expect(answer == "pong")
        socket.cancel(with: .normalClosure, reason: nil)
    }
}

@Test func recordThenReplay() async throws {                           // 5. recording
    let api = HTTPMockServer()                                         // stands in for the real API
    api.stubRequest("GET", "/v1/me").andReturn(200).withBody(#"{"name":"Ada"}"#)
    try await api.start()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("VOKMockData-\(UUID())")
    defer { try? FileManager.default.removeItem(at: folder) }
    let proxy = MockServer(httpResponder: try HTTPRecorder(upstream: api.url(for: "/"), destination: .mockData(folder: folder)))
    try await proxy.start()
    _ = try await session.data(from: proxy.url(for: "/v1/me"))         // recorded as a file in folder
    await proxy.stop(); await api.stop()
    try await withHTTPMockServer { server in                           // replayed, the API gone
        try server.addMockData(folder: folder)
        #expect(try await session.data(from: server.url(for: "/v1/me")).0 == Data(#"{"name":"Ada"}"#.utf8))
    }
}
