import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import MockServerTesting
import Testing

@Test(.enabled(if: URLSessionWebSockets.areAvailable, "this system's URLSession cannot open WebSockets"))
func liveQuotes() async throws {
    let script = try ResponseScript(json: #"""
        {"scheme": "websocket", "path": "/quotes",
         "responses": {"welcome":   {"pattern": "«initial»", "commands": ["hello"]},
                       "subscribe": {"pattern": "^subscribe (\\w+)$", "commands": ["subscribed to $1"]},
                       "bye":       {"pattern": "^bye$", "commands": [{"close": 4000, "reason": "bye"}]}}}
        """#)
    func text(_ message: URLSessionWebSocketTask.Message) -> String? {
        if case .string(let text) = message { text } else { nil }
    }
    try await withMockServer(script: script) { server in
        let socket = URLSession.shared.webSocketTask(with: server.url(for: "/quotes"))
        socket.resume()
        #expect(text(try await socket.receive()) == "hello")
        try await socket.send(.string("subscribe AAPL"))
        #expect(text(try await socket.receive()) == "subscribed to AAPL")
        // A server-pushed message, outside any response: what a live UI waits for.
        await server.sendWebSocketMessage(.text("AAPL 231.50"))
        #expect(text(try await socket.receive()) == "AAPL 231.50")
        try await socket.send(.string("bye"))
        _ = try? await socket.receive()
        #expect(socket.closeCode.rawValue == 4000)
    }
}
