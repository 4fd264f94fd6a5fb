import Foundation
import Testing
import TestSupport
import MockServerCore

/// A server made of nothing but the core's parts and a test-only driver.
final class CoreOnlyServer: Sendable {
    let port: UInt16
    let environment = ServerEnvironment(transcript: Transcript(), logger: .disabled)
    private let server: LoopServer

    init(makeDriver: @escaping @Sendable () -> any StreamDriver) throws {
        server = try LoopServer.start(binding: [NetworkAddress(host: "127.0.0.1", port: 0)], environment: environment, prepare: { _ in }) { loop, sockets, _ in
            [Listener(socket: sockets[0], loop: loop) { [unowned loop] client in
                try StreamConnection(socket: client, loop: loop, driver: makeDriver()).start()
            }]
        }.server
        port = server.addresses[0].port
    }

    func stop() { server.stop() }
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
