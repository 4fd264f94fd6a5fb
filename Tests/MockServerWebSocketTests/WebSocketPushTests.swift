import Foundation
import Testing
import TestSupport
import MockServer

/// Messages the server pushes outside any response (what WebSocket tests most need), from Swift and
/// through `mockserver --admin`, and WebSocket over TLS.
@Suite("WebSocket pushes and wss", .offPool)
struct WebSocketPushTests {
    static let script = """
        {"scheme": "websocket", "responses": {"hello": {"pattern": "«initial»", "commands": ["ready"]},
                                              "subscribe": {"pattern": "^subscribe$", "commands": []},
                                              "echo": {"pattern": ".*", "commands": ["$0"]}}}
        """

    /// How long a Python client waits for the pushes. Generous: the pushes come from this test's
    /// own code, which resumes only when Swift's cooperative pool has a thread for it, and other
    /// tests' blocking clients can hold both of a small machine's for tens of seconds (CI: a test
    /// resumed after 30 s, when its client had given up at 20).
    static let clientSeconds = 150

    /// A client that prints the welcome and the next `count` messages (binary ones in hex).
    private func listener(_ url: String, count: Int, ssl: String = "None") -> String {
        """
        import asyncio, ssl
        from websockets.asyncio.client import connect
        async def main():
            async with connect("\(url)", ssl=\(ssl)) as ws:
                print(await ws.recv(), flush=True)
                await ws.send("subscribe")
                for _ in range(\(count)):
                    message = await ws.recv()
                    print(message.hex() if isinstance(message, bytes) else message, flush=True)
        asyncio.run(asyncio.wait_for(main(), \(Self.clientSeconds)))
        """
    }

    /// The connection of the client that has said `subscribe`.
    private func waitForSubscriber(_ server: MockServer) async throws -> Int {
        try await server.transcript.wait(for: "a subscriber", timeout: .seconds(Self.clientSeconds)) { entry in
            if case .input(let input, _) = entry.event { input.text == "subscribe" } else { false }
        }.connection
    }

    @Test("sendWebSocketMessage reaches the client waiting for it, text and binary, and names the connections it reached", .enabled(if: Tools.hasPython))
    func pushFromSwift() async throws {
        let server = try MockServer(script: ResponseScript(json: Self.script))
        try await server.start()
        defer { server.stop() }
        #expect(await server.sendWebSocketMessage(.text("nobody")) == [])
        let result = BackgroundRun.python(listener(server.url().absoluteString, count: 2), timeout: TimeInterval(Self.clientSeconds + 30))
        let connection = try await waitForSubscriber(server)
        #expect(await server.openWebSocketConnections() == [connection])
        #expect(await server.sendWebSocketMessage(.text("price 42"), toConnection: connection) == [connection])
        #expect(await server.sendWebSocketMessage(.binary([0xCA, 0xFE])) == [connection])
        #expect(await server.sendWebSocketMessage(.text("elsewhere"), toConnection: connection + 100) == [])
        let finished = try await result.value()
        #expect(finished.stdout == "ready\nprice 42\ncafe\n", "\(finished.stdout)\(finished.stderr)")
        #expect(server.url().scheme == "ws")
    }

    @Test("the admin API lists open WebSocket connections and pushes a message to them; errors name the culprit", .enabled(if: Tools.hasPython && Tools.hasCurl))
    func pushFromAdmin() async throws {
        let folder = try Tools.temporaryDirectory()
        let script = folder.appendingPathComponent("ws.json")
        try Data(Self.script.utf8).write(to: script)
        let command = try RunningCommand(["--admin", "--verbose", script.path])
        defer { _ = command.terminate() }
        let port = try #require(command.firstLine.split(separator: ":").last.flatMap { UInt16($0.trimmingCharacters(in: .whitespacesAndNewlines)) },
                                "\(command.firstLine)")
        let admin = try #require(command.nextLine().split(separator: " ").last.map(String.init))
        let none = try Tools.curl(["-s", "-w", " %{http_code}", "-H", "Content-Type: application/json", "-d", "hi", admin + "websocket/send"])
        #expect(none.stdout == "{\"error\":\"no WebSocket connection is open\"}\n 409", "\(none.stdout)")
        let result = BackgroundRun.python(listener("ws://127.0.0.1:\(port)/", count: 2), timeout: TimeInterval(Self.clientSeconds + 30))
        let subscribed = try Tools.curl(["-s", admin + "wait?input=%5Esubscribe%24&timeout=20"])
        #expect(subscribed.stdout == "{\"input\":\"subscribe\"}\n", "\(subscribed.stdout)\(subscribed.stderr)\n\((try? Tools.curl(["-s", admin + "transcript"]).stdout) ?? "")")
        let connections = try Tools.curl(["-s", admin + "websocket/connections"])
        #expect(connections.stdout == "{\"connections\":[1]}\n", "\(connections.stdout)")
        let missing = try Tools.curl(["-s", "-w", " %{http_code}", "-H", "Content-Type: application/json", "-d", "x", admin + "websocket/send?connection=9"])
        #expect(missing.stdout == "{\"error\":\"no open WebSocket connection 9 (open: 1)\"}\n 404", "\(missing.stdout)")
        let text = try Tools.curl(["-s", "-w", " %{http_code}", "-H", "Content-Type: text/x-message", "--data-binary", "from admin", admin + "websocket/send?connection=1"])
        #expect(text.stdout == "{\"sent\":[1]}\n 200", "\(text.stdout)")
        let binary = try Tools.curl(["-s", "-H", "Content-Type: application/octet-stream", "--data-binary", "\u{1}\u{2}", admin + "websocket/send"])
        #expect(binary.stdout == "{\"sent\":[1]}\n", "\(binary.stdout)")
        let finished = try await result.value()
        #expect(finished.stdout == "ready\nfrom admin\n0102\n", "\(finished.stdout)\(finished.stderr)\nmockserver: \(command.terminate().1)")
    }

    @Test("wss: a websocket script behind implicit TLS, with its URL's scheme", .enabled(if: Tools.hasPython))
    func overTLS() async throws {
        var configuration = MockServer.Configuration()
        configuration.tls = try TLSSettings.generated()
        let server = try MockServer(script: ResponseScript(json: Self.script), configuration: configuration)
        try await server.start()
        defer { server.stop() }
        let ca = try Tools.temporaryDirectory().appendingPathComponent("ca.pem").path
        try #require(configuration.tls?.identity.caCertificatePEM).write(toFile: ca, atomically: true, encoding: .utf8)
        #expect(server.url().scheme == "wss")
        let result = try await BackgroundRun.python("""
            import asyncio, ssl
            from websockets.asyncio.client import connect
            async def main():
                context = ssl.create_default_context(cafile="\(ca)")
                async with connect("wss://localhost:\(server.port)/", ssl=context) as ws:
                    print(await ws.recv())
                    await ws.send("secret")
                    print(await ws.recv())
            asyncio.run(asyncio.wait_for(main(), \(Self.clientSeconds)))
            """, timeout: TimeInterval(Self.clientSeconds + 30)).value()
        #expect(result.stdout == "ready\nsecret\n", "\(result.stdout)\(result.stderr)")
    }
}
