import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import MockServerTesting
import Testing

@Test func recordOnceReplayAfter() async throws {
    // Stands in for the real API you record once.
    let api = HTTPMockServer()
    api.stubRequest("GET", "/v1/me").andReturn(200)
        .withHeaders(["Content-Type": "application/json", "Set-Cookie": "session=abc"])
        .withBody(#"{"name":"Ada"}"#)
    try await api.start()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("VOKMockData-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }

    // Record: each request goes to the API through the recorder, each answer becomes a file.
    let recorder = try HTTPRecorder(upstream: api.url(for: "/"), destination: .mockData(folder: folder))
    let proxy = MockServer(httpResponder: recorder)
    try await proxy.start()
    let (recorded, _) = try await URLSession.shared.data(from: proxy.url(for: "/v1/me"))
    await proxy.stop()
    await api.stop()

    // Replay with the API gone: the folder answers with the same bytes.
    try await withHTTPMockServer { server in
        try server.addMockData(folder: folder)
        let (replayed, _) = try await URLSession.shared.data(from: server.url(for: "/v1/me"))
        #expect(replayed == recorded)
    }
    // The cookie was masked before anything was written.
    let file = try String(contentsOf: folder.appendingPathComponent("GET|-v1-me.http"), encoding: .utf8)
    #expect(file.contains("Set-Cookie: MASKED"))
}
