import Foundation
import Testing
import TestSupport
import MockServer

/// WebSocket conversations as scripts (RFC 6455), driven by Python's `websockets` and aiohttp: each
/// message is an input unit for the pattern responder, and what the script sends arrives as the
/// messages, pings and close codes it says.
@Suite("WebSocket scripts", .offPool)
struct WebSocketScriptTests {
    static let chat = """
        {"scheme": "websocket",
         "responses": {
            "hello": {"pattern": "«initial»", "commands": ["welcome"]},
            "echo":  {"pattern": "^echo (.*)$", "commands": ["$1"]},
            "bytes": {"pattern": "^\\\\x00\\\\x01", "commands": [{"binary": {"hex": "ff00fe"}}]},
            "hex":   {"pattern": "^hex$", "commands": [{"hex": "0102"}]},
            "two":   {"pattern": "^two$", "commands": ["one", 0.05, "two"]},
            "parts": {"pattern": "^parts$", "commands": [{"frame": {"opcode": 1, "fin": false, "payload": "Hel"}}, "«ping»",
                                                           {"frame": {"opcode": 0, "payload": "lo"}}]},
            "switch": {"pattern": "^quiet$", "commands": [{"set": "quiet"}, "ok"]},
            "bye":   {"pattern": "^bye$", "commands": ["see you", {"close": 4000, "reason": "bye"}]},
            "drop":  {"pattern": "^drop$", "commands": ["«disconnect»"]},
            "bad":   {"pattern": "^bad$", "commands": [{"frame": {"opcode": 1, "rsv": 4, "payload": "x"}}]},
            "shh":   {"pattern": ".*", "commands": ["shh"]}
         },
         "sets": {"default": {"responses": ["hello", "echo", "bytes", "hex", "two", "parts", "switch", "bye", "drop", "bad"]},
                  "quiet": {"responses": ["bye", "shh"]}}}
        """

    private func start(_ json: String = Self.chat) throws -> MockServer {
        let server = try MockServer(script: ResponseScript(json: json))
        try server.start()
        return server
    }

    /// Runs an asyncio `main()` written against `websockets`' client, with `URL` bound to the server.
    private func websockets(_ body: String, url: String) throws -> Tools.Result {
        try Tools.python(Tools.websocketsProgram(body, url: url, seconds: 20), timeout: 40)
    }

    @Test("text, binary, fragments both ways, pings both ways, set switches and a close code with websockets", .enabled(if: Tools.hasPython))
    func conversation() throws {
        let server = try start()
        defer { server.stop() }
        let result = try websockets("""
            async def main():
                async with connect(URL) as ws:
                    print(await ws.recv())
                    await ws.send("echo hi there")
                    print(await ws.recv())
                    await ws.send(b"\\x00\\x01\\x02")
                    print((await ws.recv()).hex())
                    await ws.send("hex")
                    print((await ws.recv()).hex())
                    await ws.send(["ec", "ho frag", "mented"])
                    print(await ws.recv())
                    pong = await ws.ping(b"are you there")
                    await asyncio.wait_for(pong, 5)
                    print("pong")
                    await ws.send("parts")
                    print(await ws.recv())
                    await ws.send("two")
                    print(await ws.recv(), await ws.recv())
                    await ws.send("quiet")
                    print(await ws.recv())
                    await ws.send("echo nothing")
                    print(await ws.recv())
                    await ws.send("bye")
                    print(await ws.recv())
                    try:
                        await ws.recv()
                    except ConnectionClosed as closed:
                        print(closed.rcvd.code, closed.rcvd.reason)
            """, url: "ws://127.0.0.1:\(server.port)/anything")
        #expect(result.stdout == """
            welcome
            hi there
            ff00fe
            0102
            fragmented
            pong
            Hello
            one two
            ok
            shh
            see you
            4000 bye

            """, "\(result.stdout)\(result.stderr)")
        #expect(server.transcript.inputs.map(\.text).contains("echo hi there"))
        #expect(server.transcript.inputs.map(\.text).contains("echofragmented") == false)
        #expect(server.transcript.inputs.map(\.text).contains("echo fragmented"))
        let sent = server.transcript.entries.compactMap { entry -> String? in
            if case .output(let bytes) = entry.event { String(decoding: bytes, as: UTF8.self) } else { nil }
        }
        #expect(sent.prefix(2) == ["welcome", "hi there"])
    }

    @Test("the script's path and subprotocols: the server's preference wins; another path is 404", .enabled(if: Tools.hasPython))
    func pathAndSubprotocols() throws {
        let server = try start("""
            {"scheme": "websocket", "path": "/chat", "subprotocols": ["chat.v2", "chat.v1"],
             "responses": {"any": {"pattern": ".*", "commands": ["$0"]}}}
            """)
        defer { server.stop() }
        let result = try websockets("""
            async def main():
                async with connect(URL + "/chat?room=1", subprotocols=["chat.v1", "chat.v2"]) as ws:
                    print(ws.subprotocol)
                    await ws.send("x")
                    print(await ws.recv())
                async with connect(URL + "/chat") as ws:
                    print(ws.subprotocol)
                try:
                    async with connect(URL + "/other") as ws:
                        print("opened")
                except InvalidStatus as refused:
                    print(refused.response.status_code, refused.response.body.decode().strip())
            """, url: "ws://127.0.0.1:\(server.port)")
        #expect(result.stdout == "chat.v2\nx\nNone\n404 this server's WebSocket is at /chat, not /other\n", "\(result.stdout)\(result.stderr)")
    }

    @Test("«disconnect» drops the connection without a close frame; a bad frame from the script fails the client with 1002", .enabled(if: Tools.hasPython))
    func scriptFaults() throws {
        let server = try start()
        defer { server.stop() }
        let result = try websockets("""
            async def main():
                for word in ["drop", "bad"]:
                    async with connect(URL) as ws:
                        await ws.recv()
                        await ws.send(word)
                        try:
                            await ws.recv()
                        except ConnectionClosed as closed:
                            print(word, closed.rcvd.code if closed.rcvd else None, closed.sent.code if closed.sent else None)
            """, url: "ws://127.0.0.1:\(server.port)")
        #expect(result.stdout == "drop None None\nbad None 1002\n", "\(result.stdout)\(result.stderr)")
    }

    @Test("aiohttp's client: text, binary, and the server's close code", .enabled(if: Tools.hasPython))
    func aiohttp() throws {
        let server = try start()
        defer { server.stop() }
        let result = try Tools.python("""
            import asyncio, aiohttp
            async def main():
                async with aiohttp.ClientSession() as session:
                    async with session.ws_connect("ws://127.0.0.1:\(server.port)/") as ws:
                        print((await ws.receive()).data)
                        await ws.send_str("echo via aiohttp")
                        print((await ws.receive()).data)
                        await ws.send_bytes(b"\\x00\\x01")
                        print((await ws.receive()).data.hex())
                        await ws.send_str("bye")
                        print((await ws.receive()).data)
                        message = await ws.receive()
                        print(message.type.name, message.data, message.extra)
            asyncio.run(asyncio.wait_for(main(), 20))
            """, timeout: 40)
        #expect(result.stdout == "welcome\nvia aiohttp\nff00fe\nsee you\nCLOSE 4000 bye\n", "\(result.stdout)\(result.stderr)")
    }

    @Test("a message that no response matches closes with 1011 and is in the transcript as unmatched", .enabled(if: Tools.hasPython))
    func unmatched() throws {
        let server = try start()
        defer { server.stop() }
        let result = try websockets("""
            async def main():
                async with connect(URL) as ws:
                    await ws.recv()
                    await ws.send("nobody knows this")
                    try:
                        await ws.recv()
                    except ConnectionClosed as closed:
                        print(closed.rcvd.code, closed.rcvd.reason)
            """, url: "ws://127.0.0.1:\(server.port)")
        #expect(result.stdout == "1011 no response matches the message\n", "\(result.stdout)\(result.stderr)")
        #expect(server.transcript.entries.contains { if case .unmatched(let input) = $0.event { input.text == "nobody knows this" } else { false } })
    }
}
