import Foundation
import Testing
import TestSupport
import MockServer

/// Stubs that upgrade to a WebSocket answered by a Swift handler (`andUpgradeToWebSocket`), with
/// Python's `websockets` as the client.
@Suite("WebSocket handlers", .offPool)
struct WebSocketHandlerTests {
    /// Runs an asyncio `main()` written against `websockets`' client, with `URL` bound to the
    /// server's WebSocket URL for `path`, on a thread of its own (the handler runs in this process's
    /// cooperative pool, which a blocking wait must not hold).
    private func websockets(_ body: String, server: HTTPMockServer, path: String) -> BackgroundRun {
        BackgroundRun.python(Tools.websocketsProgram(body, url: "ws://127.0.0.1:\(server.port)\(path)", seconds: 120), timeout: 150)
    }

    @Test("a handler greets, echoes text and binary, reads the subprotocol and closes with its own code", .enabled(if: Tools.hasPython))
    func conversation() async throws {
        let server = HTTPMockServer()
        server.stubRequest("GET", "/chat").andUpgradeToWebSocket(subprotocols: ["chat.v2", "chat.v1"]) { socket in
            try await socket.send("welcome \(socket.subprotocol ?? "-") \(socket.request.query ?? "")")
            for try await message in socket.messages {
                switch message {
                case .text("bye"): return await socket.close(WebSocketConnection.CloseCode(rawValue: 4000), reason: "done")
                case .text(let text): try await socket.send("echo: \(text)")
                case .binary(let bytes): try await socket.send(.binary(bytes.reversed()))
                }
            }
        }
        try await server.start()
        defer { server.stop() }
        let run = websockets("""
            async def main():
                async with connect(URL, subprotocols=["chat.v1", "chat.v2"]) as ws:
                    print(await ws.recv())
                    await ws.send("hi")
                    print(await ws.recv())
                    await ws.send(bytes([1, 2, 3]))
                    print((await ws.recv()).hex())
                    await ws.send(["frag", "ments"])
                    print(await ws.recv())
                    await ws.send("bye")
                    try:
                        await ws.recv()
                    except ConnectionClosed as closed:
                        print(closed.rcvd.code, closed.rcvd.reason)
            """, server: server, path: "/chat?room=7")
        let result = try await run.value()
        #expect(result.stdout == "welcome chat.v2 room=7\necho: hi\n030201\necho: fragments\n4000 done\n", "\(result.stdout)\(result.stderr)")
        let entries = server.transcript.entries
        #expect(entries.contains { if case .input(let input, let name) = $0.event { input.text == "hi" && name == "GET /chat" } else { false } })
        #expect(entries.contains { if case .output(let bytes) = $0.event { bytes == Array("echo: hi".utf8) } else { false } })
        #expect(entries.contains { if case .note(let note) = $0.event { note.kind == "websocket-open" } else { false } })
    }

    /// A handler once ran in a task on Swift's cooperative pool: a full run's tests that blocked
    /// the pool's two threads left a client waiting for its greeting. It runs on the mock's loop, as
    /// an HTTP responder's `async` answer does.
    @Test("with Swift's cooperative pool held busy, a handler still greets and echoes", .enabled(if: Tools.hasPython))
    func answersWithoutTheCooperativePool() throws {
        let server = HTTPMockServer()
        server.stubRequest("GET", "/echo").andUpgradeToWebSocket { socket in
            try await socket.send("welcome")
            for try await message in socket.messages {
                if case .text(let text) = message { try await socket.send("echo: \(text)") }
            }
        }
        try server.start()
        defer { server.stop() }
        let hold = CooperativePoolHold()
        defer { hold.release() }
        let result = try Tools.python(Tools.websocketsProgram("""
            async def main():
                async with connect(URL) as ws:
                    print(await ws.recv())
                    await ws.send("hi")
                    print(await ws.recv())
            """, url: "ws://127.0.0.1:\(server.port)/echo", seconds: 10), timeout: 20)
        #expect(result.stdout == "welcome\necho: hi\n", "\(result.stdout)\(result.stderr)")
    }

    @Test("the messages end when the client closes, with its code; a handler that returns closes with 1000, one that throws with 1011 and the error", .enabled(if: Tools.hasPython))
    func endings() async throws {
        struct Refusal: Error, CustomStringConvertible {
            var description: String { "no such account" }
        }
        let (ended, report) = AsyncStream.makeStream(of: String.self)
        let server = HTTPMockServer()
        server.stubRequest("GET", "/listen").andUpgradeToWebSocket { socket in
            var count = 0
            for try await _ in socket.messages { count += 1 }
            report.yield("\(count) messages, client code \(socket.clientCloseCode().map { $0.map(String.init(describing:)) ?? "none" } ?? "not closed")")
        }
        server.stubRequest("GET", "/once").andUpgradeToWebSocket { socket in
            try await socket.send("only this")
        }
        server.stubRequest("GET", "/fails").andUpgradeToWebSocket { _ in
            throw Refusal()
        }
        try await server.start()
        defer { server.stop() }
        let run = websockets("""
            async def main():
                async with connect(URL) as ws:
                    await ws.send("a")
                    await ws.send("b")
                    await ws.close(code=1001)
                for path in ["/once", "/fails"]:
                    async with connect(URL.replace("/listen", path)) as ws:
                        try:
                            while True:
                                print(await ws.recv())
                        except ConnectionClosed as closed:
                            print(closed.rcvd.code, closed.rcvd.reason)
            """, server: server, path: "/listen")
        let result = try await run.value()
        #expect(result.stdout == "only this\n1000 \n1011 the handler threw: no such account\n", "\(result.stdout)\(result.stderr)")
        var reports = ended.makeAsyncIterator()
        #expect(await reports.next() == "2 messages, client code 1001")
    }

    @Test("a request that is not a WebSocket handshake gets 426 and the reason; pushes reach a handler's connection; sends after the close throw", .enabled(if: Tools.hasPython && Tools.hasCurl))
    func refusalsAndPushes() async throws {
        let (sent, report) = AsyncStream.makeStream(of: String.self)
        let server = HTTPMockServer()
        server.stubRequest("GET", "/feed").andUpgradeToWebSocket { socket in
            try await socket.send("subscribed")
            for try await message in socket.messages where message == .text("stop") {
                await socket.close()
            }
            do {
                try await socket.send("too late")
                report.yield("sent")
            } catch let error as WebSocketConnection.ClosedError {
                report.yield(error.reason)
            }
        }
        server.stubRequest("GET", "/plain").andReturn(200).withBody("still here")
        try await server.start()
        defer { server.stop() }
        let plain = try Tools.curl(["-i", server.url(for: "/feed").absoluteString])
        #expect(plain.stdout.hasPrefix("HTTP/1.1 426"), "\(plain.stdout)")
        #expect(plain.stdout.contains("the request has no \"Upgrade: websocket\""), "\(plain.stdout)")
        #expect(try Tools.curl([server.url(for: "/plain").absoluteString]).stdout == "still here")
        let run = websockets("""
            async def main():
                async with connect(URL) as ws:
                    print(await ws.recv(), flush=True)
                    await ws.send("ready")
                    print(await ws.recv(), flush=True)
                    await ws.send("stop")
                    try:
                        await ws.recv()
                    except ConnectionClosed as closed:
                        print(closed.rcvd.code)
            """, server: server, path: "/feed")
        let ready = try await server.transcript.wait(for: "the client's ready", timeout: .seconds(140)) { entry in
            if case .input(let input, _) = entry.event { input.text == "ready" } else { false }
        }
        #expect(await server.openWebSocketConnections() == [ready.connection])
        #expect(await server.sendWebSocketMessage(.text("pushed"), toConnection: ready.connection) == [ready.connection])
        let result = try await run.value()
        #expect(result.stdout == "subscribed\npushed\n1000\n", "\(result.stdout)\(result.stderr)")
        var reports = sent.makeAsyncIterator()
        #expect(await reports.next()?.hasPrefix("the connection is closed or closing") == true)
    }

    @Test("a handler that is behind stops the reading at its queue's limit; once it reads, every message comes, in order", .enabled(if: Tools.hasPython))
    func backpressure() async throws {
        let (go, release) = AsyncStream.makeStream(of: Void.self)
        let server = HTTPMockServer()
        server.stubRequest("GET", "/slow").andUpgradeToWebSocket { socket in
            var signal = go.makeAsyncIterator()
            await signal.next()
            var received: [String] = []
            for try await message in socket.messages {
                received.append(message.description)
                if received.count == 200 { break }
            }
            let inOrder = received == (0..<200).map(String.init)
            try await socket.send("\(received.count) in order: \(inOrder)")
        }
        try await server.start()
        defer { server.stop() }
        // No keepalive pings: the server reads nothing while the handler is behind, so it cannot
        // answer one, and on a loaded machine the client's 20 s ping timeout ended the test.
        let run = websockets("""
            async def main():
                async with connect(URL, ping_interval=None) as ws:
                    for index in range(200):
                        await ws.send(str(index))
                    print(await ws.recv())
            """, server: server, path: "/slow")
        // The note is the event: the server stopped reading with the handler's queue full.
        let paused = try await server.transcript.wait(for: "reading paused", timeout: .seconds(140)) { entry in
            if case .note(let note) = entry.event { note.kind == "websocket-paused" } else { false }
        }
        // The messages read: the connection's inputs after its opening request.
        let read = server.transcript.entries.filter { entry in
            guard entry.connection == paused.connection, case .input(let input, _) = entry.event else { return false }
            return !input.text.hasPrefix("GET /slow ")
        }.count
        #expect(read == WebSocketConnection.queueLimit, "\(read) messages read before the pause")
        release.yield()
        let result = try await run.value()
        #expect(result.stdout == "200 in order: true\n", "\(result.stdout)\(result.stderr)")
    }
}
