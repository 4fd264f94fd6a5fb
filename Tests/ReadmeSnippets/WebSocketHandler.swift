import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import MockServerTesting
import Testing

@Test(.enabled(if: URLSessionWebSockets.areAvailable, "this system's URLSession cannot open WebSockets"))
func chatHandler() async throws {
    try await withHTTPMockServer { server in
        server.stubRequest("GET", "/chat").andUpgradeToWebSocket(subprotocols: ["chat.v1"]) { socket in
            try await socket.send("welcome to room \(socket.request.query ?? "lobby")")
            for try await message in socket.messages {
                guard message != .text("bye") else { return await socket.close(WebSocketConnection.CloseCode(rawValue: 4000), reason: "bye") }
                try await socket.send(.text("echo: \(message)"))
            }
        }
        let url = try #require(URL(string: "ws://127.0.0.1:\(server.port)/chat?room=7"))
        let socket = URLSession.shared.webSocketTask(with: url, protocols: ["chat.v1"])
        socket.resume()
        guard case .string(let welcome) = try await socket.receive() else { throw URLError(.cannotDecodeContentData) }
        #expect(welcome == "welcome to room room=7")
        try await socket.send(.string("hi"))
        guard case .string(let echo) = try await socket.receive() else { throw URLError(.cannotDecodeContentData) }
        #expect(echo == "echo: hi")
        try await socket.send(.string("bye"))
        _ = try? await socket.receive()
        #expect(socket.closeCode.rawValue == 4000)
    }
}
