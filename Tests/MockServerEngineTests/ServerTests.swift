import Foundation
import Testing
import TestSupport
import MockServer
@_spi(HotPath) import MockServerCore
import MockServerHTTP
import MockServerScript
import MockServerWebDAV

@Suite("Server on real sockets", .offPool)
struct ServerTests {
    static let echo = [
        entry("initial", "«initial»", .send("220 $address:$port ready\r\n")),
        entry("echo", "^ECHO (.*)", .send("$1\r\n")),
        entry("two", "^TWO", .send("first\r\n"), .send("second\r\n")),
        entry("quit", "^QUIT", .send("221 bye\r\n"), .close),
        // An hour: stop() ends it. A shorter pause could end before a test starved of the
        // cooperative pool's threads (other tests' blocking clients) reads the transcript.
        entry("slow", "^SLOW", .pause(.seconds(3600)), .send("late\r\n")),
        entry("nap", "^NAP", .pause(.milliseconds(200)), .send("awake\r\n")),
        entry("silent", "^SILENT", ),
    ]

    @Test("the banner is sent on connect, with substitutions")
    func banner() throws {
        let server = try startServer(Self.echo)
        defer { server.stop() }
        #expect(server.port != 0 && server.dataPort != 0 && server.port != server.dataPort)
        let client = try TestClient(port: server.port)
        #expect(try client.readLine() == "220 127.0.0.1:\(server.port) ready")
    }

    @Test("many lines in one write are answered in order, and consecutive sends arrive together")
    func manyLinesInOneWrite() throws {
        let server = try startServer(Self.echo)
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        _ = try client.readLine()
        try client.send((1...200).map { "ECHO \($0)\r\n" }.joined() + "TWO\n")
        for number in 1...200 { #expect(try client.readLine() == "\(number)") }
        #expect(try client.readLine() == "first")
        #expect(try client.readLine() == "second")
    }

    @Test("a line split over many writes is one input")
    func splitLine() async throws {
        let server = try startServer(Self.echo)
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        _ = try client.readLine()
        for byte in "ECHO split\r\n".utf8 { try client.send([byte]) }
        #expect(try client.readLine() == "split")
    }

    @Test("a pause on one connection does not delay another")
    func pauseDoesNotBlock() async throws {
        let server = try startServer(Self.echo)
        defer { server.stop() }
        let slow = try TestClient(port: server.port)
        _ = try slow.readLine()
        try slow.send("SLOW\r\n")
        try await server.transcript.wait(for: "the hour's pause to begin", timeout: .seconds(10)) { entry in
            if case .paused = entry.event { true } else { false }
        }
        let fast = try TestClient(port: server.port, timeout: 5)
        _ = try fast.readLine()
        try fast.send("ECHO quick\r\n")
        #expect(try fast.readLine() == "quick")
        let lateSent = server.transcript.entries.contains { entry in
            if case .output(let bytes) = entry.event { bytes == Array("late\r\n".utf8) } else { false }
        }
        #expect(!lateSent)
    }

    @Test("a pause lasts at least as long as asked, and input during it waits its turn")
    func pauseHolds() throws {
        let server = try startServer(Self.echo)
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        _ = try client.readLine()
        let start = ContinuousClock.now
        try client.send("NAP\r\nECHO after\r\n")
        #expect(try client.readLine() == "awake")
        #expect(ContinuousClock.now - start >= .milliseconds(200))
        #expect(try client.readLine() == "after")
    }

    @Test("«close» closes the connection after what came before it")
    func close() async throws {
        let server = try startServer(Self.echo)
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        _ = try client.readLine()
        try client.send("QUIT\r\n")
        #expect(try client.readLine() == "221 bye")
        #expect(try client.readToEnd().isEmpty)
        let closed = try await server.transcript.wait { $0.event.isClosed }
        #expect(closed.event == .closed(.script))
    }

    @Test("an entry without commands swallows its input")
    func swallow() throws {
        let server = try startServer(Self.echo)
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        _ = try client.readLine()
        try client.send("SILENT\r\nECHO next\r\n")
        #expect(try client.readLine() == "next")
    }

    @Test("unmatched input is recorded and closes the connection; others go on")
    func unmatched() async throws {
        let server = try startServer(Self.echo)
        defer { server.stop() }
        let bystander = try TestClient(port: server.port)
        _ = try bystander.readLine()
        let client = try TestClient(port: server.port)
        _ = try client.readLine()
        try client.send("WHAT is this\r\n")
        #expect(try client.readToEnd().isEmpty)
        let closed = try await server.transcript.wait { $0.event == .closed(.unmatchedInput) }
        #expect(server.transcript.unmatched.map(\.event) == [.unmatched(InputUnit("WHAT is this"))])
        #expect(server.transcript.unmatched.first?.connection == closed.connection)
        try bystander.send("ECHO still here\r\n")
        #expect(try bystander.readLine() == "still here")
    }

    @Test("a fallback answers unmatched input and keeps the connection")
    func fallback() throws {
        let server = try startServer(Self.echo, fallback: entry("fallback", "«initial»", .send("500 $0\r\n")))
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        _ = try client.readLine()
        try client.send("WHAT\r\nECHO ok\r\n")
        #expect(try client.readLine() == "500 WHAT")
        #expect(try client.readLine() == "ok")
        #expect(server.transcript.unmatched.isEmpty)
    }

    @Test("input that is not UTF-8 is matched lossily and kept raw")
    func invalidUTF8() async throws {
        let server = try startServer(Self.echo)
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        _ = try client.readLine()
        let raw: [UInt8] = Array("ECHO ".utf8) + [0xFF, 0x00, 0x41]
        try client.send(raw + [0x0D, 0x0A])
        _ = try client.readLine()
        let input = try await server.transcript.waitForInput(matching: "^ECHO")
        #expect(input.bytes == raw)
    }

    @Test("a line over the limit is recorded and closes the connection")
    func lineTooLong() async throws {
        let server = try startServer(Self.echo, configuration: .init(maximumLineLength: 64))
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        _ = try client.readLine()
        try client.send([UInt8](repeating: 0x41, count: 100))
        #expect(try client.readToEnd().isEmpty)
        let closed = try await server.transcript.wait { $0.event.isClosed }
        #expect(closed.event == .closed(.inputTooLong(limit: 64)))
    }

    @Test("the data port sends the data and closes")
    func dataPort() throws {
        let server = try startServer(Self.echo)
        defer { server.stop() }
        let payload = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        server.data = payload
        let client = try TestClient(port: server.dataPort)
        #expect(try client.readToEnd() == Array(payload))
    }

    @Test("the data port counts what a client sends, and records its events in order")
    func dataPortEvents() async throws {
        let server = try startServer(Self.echo)
        defer { server.stop() }
        server.data = Data("sent to whoever connects\n".utf8)
        let client = try TestClient(port: server.dataPort)
        try client.send(Array(repeating: 0x55, count: 70_000))
        client.shutdownWrite()
        #expect(try client.readToEnd() == Array("sent to whoever connects\n".utf8))
        _ = try await server.transcript.wait { $0.channel == .data && $0.event.isClosed }
        let events = server.transcript.entries.filter { $0.channel == .data }.map(\.event)
        #expect(events.count == 4)
        if case .connected = events.first {} else { Issue.record("first event: \(String(describing: events.first))") }
        #expect(Array(events.dropFirst()) == [.sent(25), .received(70_000), .closed(.transferComplete)])
    }

    @Test("stop closes open connections, is idempotent, and frees the port")
    func stopWithOpenConnections() throws {
        let server = try startServerOnFixedPort(Self.echo)
        let port = server.port
        let clients = try (0..<5).map { _ in try TestClient(port: port) }
        for client in clients { _ = try client.readLine() }
        try clients[0].send("SLOW\r\n")
        server.stop()
        server.stop()
        #expect(!server.isRunning && server.port == 0)
        for client in clients { #expect(try client.readToEnd().isEmpty) }
        // The clients go too, so that no connection of the old server's is left half-closed on the
        // port (the server closed first: its side waits for the clients' FIN); only the listener
        // is the server's to free. (CI saw the bind below refused while they were open.)
        for client in clients { client.reset() }
        let again = MockServer(responder: PatternResponder(Self.echo), port: port)
        do {
            try again.start()
        } catch {
            // Name what holds the port, so that a failure says who took it.
            Issue.record("\(error); sockets on port \(port) now (/proc/net/tcp: local, remote, state):\n\(Self.sockets(onPort: port))\n\(server.transcript.dump())")
            return
        }
        defer { again.stop() }
        #expect(again.port == port)
        #expect(server.transcript.entries.filter { $0.event == .closed(.serverStopped) }.count == 5)
    }

    /// The lines of /proc/net/tcp (and tcp6) whose local or remote port is `port`: addresses and
    /// ports in hexadecimal, then the state (`0A` listening, `01` established, `06` TIME_WAIT…).
    static func sockets(onPort port: UInt16) -> String {
        let hex = String(format: ":%04X", port)
        var found: [String] = []
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            guard let text = try? String(contentsOfFile: table, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                guard fields.count > 3, fields[1].hasSuffix(hex) || fields[2].hasSuffix(hex) else { continue }
                found.append("\(fields[1]) \(fields[2]) \(fields[3])")
            }
        }
        return found.isEmpty ? "(none)" : found.joined(separator: "\n")
    }

    @Test("a stopped server starts again")
    func restart() throws {
        let server = try startServer(Self.echo)
        server.stop()
        try server.start()
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        #expect(try client.readLine().hasPrefix("220 "))
    }

    @Test("100 parallel connections are all served")
    func parallelConnections() throws {
        let server = try startServer(Self.echo)
        defer { server.stop() }
        let clients = try (0..<100).map { _ in try TestClient(port: server.port) }
        for (index, client) in clients.enumerated() { try client.send("ECHO \(index)\r\n") }
        for (index, client) in clients.enumerated() {
            #expect(try client.readLine().hasPrefix("220 "))
            #expect(try client.readLine() == "\(index)")
        }
    }

    @Test("a taken port fails with the call, the address and the errno text")
    func bindError() throws {
        let first = try startServer(Self.echo)
        defer { first.stop() }
        let second = MockServer(responder: PatternResponder(Self.echo), port: first.port)
        do {
            try second.start()
            Issue.record("start should fail on a taken port")
        } catch let error as SocketCallError {
            #expect(error.call == "bind")
            #expect(error.description == "bind(127.0.0.1:\(first.port)): \(error.reason)")
            #expect(error.reason.lowercased().contains("in use"))
        }
        #expect(!second.isRunning)
    }

    @Test("a host that is not a numeric address is refused by name")
    func badHost() {
        #expect(throws: SocketCallError.self) { try MockServer(responder: PatternResponder([]), host: "example.invalid").start() }
    }

    @Test("IPv6 loopback works", .enabled(if: Tools.hasIPv6Loopback))
    func ipv6() throws {
        let server = try startServer(Self.echo, configuration: .init(host: "::1"))
        defer { server.stop() }
        #expect(server.address?.isIPv6 == true)
        let client = try TestClient(port: server.port, host: "::1")
        #expect(try client.readLine() == "220 ::1:\(server.port) ready")
    }

    @Test("switching the set from the test changes the next reply of open connections")
    func switchSetFromTest() throws {
        let script = try ResponseScript(json: """
            {"sets": {"default": {"responses": ["ok"]}, "fail": {"responses": ["no"]}},
             "responses": {"ok": {"pattern": "^LOGIN", "commands": ["230 ok\\r\\n"]},
                           "no": {"pattern": "^LOGIN", "commands": ["530 no\\r\\n"]}}}
            """)
        let server = try MockServer(script: script)
        try server.start()
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        try client.send("LOGIN\r\n")
        #expect(try client.readLine() == "230 ok")
        try server.useResponseSet("fail")
        try client.send("LOGIN\r\n")
        #expect(try client.readLine() == "530 no")
        #expect(throws: ResponseFileError.self) { try server.useResponseSet("missing") }
    }

    @Test("a set command makes a per-connection state machine (SMTP DATA mode)")
    func switchSetByCommand() throws {
        let script = try ResponseScript(json: """
            {"sets": {"default": {"responses": ["data", "mail"]}, "body": {"responses": ["end", "line"]}},
             "responses": {"data": {"pattern": "^DATA", "commands": ["354 go\\r\\n", {"set": "body"}]},
                           "mail": {"pattern": "^MAIL", "commands": ["250 ok\\r\\n"]},
                           "end": {"pattern": "^\\\\.$", "commands": ["250 queued\\r\\n", {"set": "default"}]},
                           "line": {"pattern": ".*", "commands": []}}}
            """)
        let server = try MockServer(script: script)
        try server.start()
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        let other = try TestClient(port: server.port)
        try client.send("DATA\r\nMAIL in the body\r\nmore\r\n.\r\nMAIL after\r\n")
        #expect(try client.readLine() == "354 go")
        #expect(try client.readLine() == "250 queued")
        #expect(try client.readLine() == "250 ok")
        try other.send("MAIL\r\n")
        #expect(try other.readLine() == "250 ok")
    }

    @Test("the responder can be swapped while running")
    func swapResponder() throws {
        let server = try startServer(Self.echo)
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        _ = try client.readLine()
        server.responder = PatternResponder([entry("echo", "^ECHO (.*)", .send("new $1\r\n"))])
        try client.send("ECHO x\r\n")
        #expect(try client.readLine() == "new x")
    }

    @Test("each reply's context has the data as it is then, on one connection, for a responder written in code")
    func contextDataPerReply() throws {
        let server = MockServer(responder: DataSizeResponder())
        try server.start()
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        server.data = Data("abc".utf8)
        try client.send("SIZE\r\n")
        #expect(try client.readLine() == "3")
        server.data = Data("abcdefg".utf8)
        try client.send("SIZE\r\n")
        #expect(try client.readLine() == "7")
        server.data = Data()
        try client.send("SIZE\r\n")
        #expect(try client.readLine() == "0")
    }

    @Test("a waiting test that times out gets the transcript so far")
    func waitTimeout() async throws {
        let server = try startServer(Self.echo)
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        _ = try client.readLine()
        do {
            try await server.transcript.waitForInput(matching: "^NEVER", timeout: .milliseconds(50))
            Issue.record("should time out")
        } catch let error as Transcript.Timeout {
            #expect(error.description.contains("input matching ^NEVER"))
            #expect(error.description.contains("-> 220 127.0.0.1"))
        }
    }

    @Test("logging is off by default and goes to the handler at the chosen level")
    func logging() async throws {
        let records = Locked<[MockServerLogger.Record]>([])
        let logger = MockServerLogger(level: .debug) { record in records.withLock { $0.append(record) } }
        let server = try startServer(Self.echo, configuration: .init(logger: logger))
        let client = try TestClient(port: server.port)
        _ = try client.readLine()
        try client.send("NOPE\r\n")
        _ = try client.readToEnd()
        try await server.transcript.wait { $0.event.isClosed }
        await server.stop()
        let messages = records.withLock { $0 }
        #expect(messages.contains { $0.level == .warning && $0.message.contains("unmatched input: NOPE") })
        #expect(messages.contains { $0.level == .info && $0.message.hasPrefix("listening on 127.0.0.1:") })
        #expect(!messages.contains { $0.level == .trace })
    }

    @Test("the async start and stop work from async code")
    func asyncLifecycle() async throws {
        let server = MockServer(responder: PatternResponder(Self.echo))
        try await server.start()
        #expect(server.port != 0)
        await server.stop()
        #expect(!server.isRunning)
    }
}

/// Answers every line with the size of the data in the reply's substitution context.
private struct DataSizeResponder: ScriptResponder {
    func respond(to input: InputUnit, session: inout ScriptSession, context: SubstitutionContext) -> ScriptReply? {
        ScriptReply(commands: [.sendBytes(Array("\(context.data.count)\r\n".utf8))], match: ScriptRun.Match(input: input))
    }
}
