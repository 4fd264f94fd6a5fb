import Foundation
import Testing
import TestSupport
import MockServerCore

/// A server made of nothing but the core's parts and a test-only driver.
final class CoreOnlyServer: Sendable {
    let port: UInt16
    let environment = ServerEnvironment(transcript: Transcript(), logger: .disabled)
    private let inbox: LoopInbox
    private let thread: LoopThread

    init(makeDriver: @escaping @Sendable () -> any StreamDriver) throws {
        let socket = try Socket.listening(on: SocketAddress(host: "127.0.0.1", port: 0))
        let selector = try IOSelector.make()
        try selector.register(socket.fd, interest: .read)
        port = socket.localAddress?.port ?? 0
        let inbox = LoopInbox(selector: selector)
        self.inbox = inbox
        let environment = self.environment
        thread = try LoopThread.start {
            let loop = EventLoop(selector: selector, inbox: inbox, environment: environment)
            loop.adopt(Listener(socket: socket, loop: loop) { [unowned loop] client in
                try StreamConnection(socket: client, loop: loop, driver: makeDriver()).start()
            }, fd: socket.fd)
            loop.run()
        }
    }

    func stop() {
        inbox.execute { $0.stop() }
        thread.join()
    }
}

@Suite("A protocol driver outside the core", .offPool)
struct StreamDriverTests {
    @Test("a length-prefixed echo protocol, split into single bytes and pipelined, with a pause-free close")
    func lengthPrefixedEcho() async throws {
        let server = try CoreOnlyServer { LengthPrefixedEchoDriver() }
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        #expect(try client.read(count: 7) == LengthPrefixedEchoDriver.message(Array("HELLO".utf8)))
        let stream = LengthPrefixedEchoDriver.message(Array("abc".utf8)) + LengthPrefixedEchoDriver.message(Array("QUIT".utf8))
        for byte in stream { try client.send([byte]) }
        #expect(try client.read(count: 5) == LengthPrefixedEchoDriver.message(Array("cba".utf8)))
        #expect(try client.readToEnd() == LengthPrefixedEchoDriver.message(Array("BYE".utf8)))
        _ = try await server.environment.transcript.wait { $0.event == .closed(.script) }
        let inputs = server.environment.transcript.inputs.map { String(decoding: $0.bytes, as: UTF8.self) }
        #expect(inputs == ["abc", "QUIT"])
    }

    @Test("a length over the driver's limit closes with its reason")
    func overLimit() async throws {
        let server = try CoreOnlyServer { LengthPrefixedEchoDriver() }
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        _ = try client.read(count: 7)
        try client.send([0xFF, 0xFF])
        #expect(try client.readToEnd().isEmpty)
        let closed = try await server.environment.transcript.wait { if case .closed = $0.event { true } else { false } }
        #expect(closed.event == .closed(.inputTooLong(limit: 1024)))
    }
}
