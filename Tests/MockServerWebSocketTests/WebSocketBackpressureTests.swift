import Foundation
import Testing
import TestSupport
import MockServer

/// A handler that sends to a client that does not read (issue 48): its `send` waits for the
/// client to read, rather than the server queuing every message.
@Suite("WebSocket handler sends are paced by the client's reading", .offPool)
struct WebSocketBackpressureTests {
    /// When something happened, set once from any thread.
    private final class Moment: @unchecked Sendable {
        private let lock = NSLock()
        private var instant: ContinuousClock.Instant?
        func mark() { lock.withLock { instant = instant ?? .now } }
        var value: ContinuousClock.Instant? { lock.withLock { instant } }
    }

    @Test("200 messages of 64 KiB to a client that reads nothing for a second: the handler's last send returns only after the client began reading; all arrive")
    func handlerWaitsForTheClient() async throws {
        let count = 200
        let size = 64 * 1024
        let done = Moment()
        let (finished, finish) = AsyncStream<Void>.makeStream()
        let server = HTTPMockServer()
        server.stubRequest("GET", "/feed").andUpgradeToWebSocket { socket in
            for index in 0..<count { try await socket.send(.binary([UInt8](repeating: UInt8(index & 0xFF), count: size))) }
            done.mark()
            finish.yield()
            for try await _ in socket.messages {}
        }
        try await server.start()
        defer { server.stop() }
        let client = try TestClient(port: server.port, timeout: 30)
        try client.send("GET /feed HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
        #expect(try client.readLine() == "HTTP/1.1 101 Switching Protocols")
        while try !client.readLine().isEmpty {}
        // The client reads nothing for a second: 12.5 MiB is more than the server's 256 KiB and
        // both sockets' buffers hold, so the handler cannot have finished sending meanwhile.
        try await Task.sleep(for: .seconds(1))
        let reading = ContinuousClock.now
        // Each frame: 2 bytes, the 8-byte length, the payload.
        for index in 0..<count {
            let frame = try client.read(count: 10 + size)
            #expect(frame[0] == 0x82 && frame[10] == UInt8(index & 0xFF))
        }
        for await _ in finished { break }
        let finishedAt = try #require(done.value)
        #expect(finishedAt > reading, "the handler sent all \(count) messages before the client read any: the server queued them")
    }
}
