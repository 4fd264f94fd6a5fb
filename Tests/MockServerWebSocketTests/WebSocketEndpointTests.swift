import Foundation
import Testing
import TestSupport
import MockServer

/// Endpoints that upgrade to a WebSocket script (`"upgrade"`), beside plain endpoints of the same
/// file, with Python's `websockets` and curl as clients.
@Suite("WebSocket endpoints", .offPool)
struct WebSocketEndpointTests {
    static let file = #"""
        { "endpoints": [
            { "api": "get /status", "response": { "body": "up" } },
            { "api": "get /chat", "upgrade": {
                "scheme": "websocket", "subprotocols": ["chat.v1"],
                "sets": { "default": { "responses": ["hello", "echo", "hush", "ready", "bye"] }, "quiet": { "responses": ["loud", "bye"] } },
                "responses": {
                    "hello": { "pattern": "«initial»", "commands": ["welcome"] },
                    "echo": { "pattern": "^echo (.*)$", "commands": ["$1"] },
                    "hush": { "pattern": "^hush$", "commands": ["shh", { "set": "quiet" }] },
                    "loud": { "pattern": "^loud$", "commands": [{ "binary": { "hex": "cafe" } }, { "set": "default" }] },
                    "ready": { "pattern": "^ready$", "commands": ["waiting"] },
                    "bye": { "pattern": "^bye$", "commands": [{ "close": 4001, "reason": "bye" }] },
                } } },
        ] }
        """#

    private func websockets(_ body: String, port: UInt16, path: String) -> BackgroundRun {
        BackgroundRun.python(Tools.websocketsProgram(body, url: "ws://127.0.0.1:\(port)\(path)", seconds: 120), timeout: 150)
    }

    @Test("an endpoint's upgrade script: «initial», echo, a set switch, binary, a subprotocol, a push and its close code; the file's other endpoint serves; a GET is refused with 426",
          .enabled(if: Tools.hasPython && Tools.hasCurl))
    func conversation() async throws {
        let server = HTTPMockServer()
        try server.addEndpoints(json: Array(Self.file.utf8))
        try await server.start()
        defer { server.stop() }
        let run = websockets("""
            async def main():
                async with connect(URL, subprotocols=["chat.v1"]) as ws:
                    print(ws.subprotocol, await ws.recv())
                    await ws.send("echo hi")
                    print(await ws.recv())
                    await ws.send("hush")
                    print(await ws.recv())
                    await ws.send("loud")
                    print((await ws.recv()).hex())
                    await ws.send("echo again")
                    print(await ws.recv())
                    await ws.send("ready")
                    print(await ws.recv())
                    print(await ws.recv())
                    await ws.send("bye")
                    try:
                        await ws.recv()
                    except ConnectionClosed as closed:
                        print(closed.rcvd.code, closed.rcvd.reason)
            """, port: server.port, path: "/chat")
        // The push: once the server has read "ready", it sends one message outside any response.
        let ready = try await server.transcript.wait(for: "the client's ready", timeout: .seconds(140)) { entry in
            if case .input(let input, _) = entry.event { input.text == "ready" } else { false }
        }
        #expect(await server.sendWebSocketMessage(.text("pushed"), toConnection: ready.connection) == [ready.connection])
        let result = try await run.value()
        #expect(result.stdout == "chat.v1 welcome\nhi\nshh\ncafe\nagain\nwaiting\npushed\n4001 bye\n", "\(result.stdout)\(result.stderr)")
        let entries = server.transcript.entries
        #expect(entries.contains { if case .input(let input, let name) = $0.event { input.text == "echo hi" && name == "echo" } else { false } })
        let status = try Tools.curl(["http://127.0.0.1:\(server.port)/status"])
        #expect(status.stdout == "up")
        let refused = try Tools.curl(["-i", "http://127.0.0.1:\(server.port)/chat"])
        #expect(refused.stdout.hasPrefix("HTTP/1.1 426"), "\(refused.stdout)")
        // One Connection field that names the upgrade and the close.
        #expect(refused.stdout.components(separatedBy: "\r\n").filter { $0.lowercased().hasPrefix("connection:") } == ["Connection: Upgrade, close"], "\(refused.stdout)")
    }

    @Test("an upgrade that cannot be is refused at load, at its line and column", arguments: [
        (#"{ "endpoints": [ { "api": "get /a", "upgrade": { "scheme": "ftp", "responses": {} } } ] }"#, "api.json:1:60: endpoints[0].upgrade.scheme"),
        (#"{ "endpoints": [ { "api": "get /a", "upgrade": { "responses": {} } } ] }"#, "endpoints[0].upgrade"),
        (#"{ "endpoints": [ { "api": "get /a", "upgrade": "chat.json" } ] }"#, "a script object"),
        (#"{ "endpoints": [ { "api": "get /a", "response": { "body": "x" }, "upgrade": { "scheme": "websocket", "responses": {} } } ] }"#,
         "an endpoint that upgrades has no \"response\""),
        (#"{ "endpoints": [ { "api": "get /a", "upgrade": { "scheme": "websocket", "responses": { "r": { "pattern": "x", "commands": ["«passive»"] } } } } ] }"#,
         "«passive»"),
        (#"{ "endpoints": [ { "api": "get /a", "upgrade": { "scheme": "websocket", "conditions": {}, "responses": {} } } ] }"#,
         "network conditions go at the top"),
        (#"{ "endpoints": [ { "api": "get /a", "upgrade": { "scheme": "websocket", "sets": { "default": { "responses": ["gone"] } }, "responses": {} } } ] }"#,
         "gone"),
    ])
    func refusals(json: String, message: String) {
        do {
            try HTTPMockServer().addEndpoints(json: Array(json.utf8), file: "api.json")
            Issue.record("accepted: \(json)")
        } catch {
            #expect("\(error)".contains(message), "\(error)")
        }
    }
}
