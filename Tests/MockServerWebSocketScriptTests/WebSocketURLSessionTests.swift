import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport
import MockServer

/// `URLSessionWebSocketTask` against a WebSocket script. On Linux, FoundationNetworking opens
/// WebSockets through the system's libcurl, and only a libcurl built with WebSocket support can:
/// where it has none the test is skipped and says why.
@Suite("WebSocket with URLSession")
struct WebSocketURLSessionTests {
    @Test("URLSessionWebSocketTask: the welcome, an echo, a binary answer and the server's close code",
          .enabled(if: Tools.urlSessionSpeaksWebSocket,
                   "this system's libcurl has no WebSocket support (curl -V lists no ws), which FoundationNetworking's URLSessionWebSocketTask needs"))
    func webSocketTask() async throws {
        let server = try MockServer(script: ResponseScript(json: WebSocketScriptTests.chat))
        try await server.start()
        defer { server.stop() }
        let task = URLSession.shared.webSocketTask(with: server.url(for: "/live"))
        task.resume()
        defer { task.cancel() }
        guard case .string(let welcome) = try await task.receive() else { Issue.record("the welcome is not text"); return }
        #expect(welcome == "welcome")
        try await task.send(.string("echo from URLSession"))
        guard case .string(let echo) = try await task.receive() else { Issue.record("the echo is not text"); return }
        #expect(echo == "from URLSession")
        try await task.send(.data(Data([0x00, 0x01])))
        guard case .data(let bytes) = try await task.receive() else { Issue.record("the answer is not binary"); return }
        #expect(Array(bytes) == [0xFF, 0x00, 0xFE])
        try await task.send(.string("bye"))
        guard case .string(let last) = try await task.receive() else { Issue.record("the last message is not text"); return }
        #expect(last == "see you")
        await #expect(throws: (any Error).self) { _ = try await task.receive() }
        #expect(task.closeCode.rawValue == 4000)
        #expect(task.closeReason == Data("bye".utf8))
    }
}
