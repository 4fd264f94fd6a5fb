import MockServerCore
import Testing
import TestSupport

/// ``Socket/unacknowledgedBytes``, which FTP's 226 waits on (the data is then on the client's side):
/// it counts data, and only data, that the peer's TCP has not acknowledged.
@Suite("What a socket's peer has acknowledged", .offPool)
struct SocketAcknowledgementTests {
    /// A listening socket and a connection to it, the server's side accepted.
    private static func connectedPair() throws -> (listener: Socket, server: Socket, client: TestClient) {
        let listener = try Socket.listening(on: NetworkAddress(host: "127.0.0.1", port: 0))
        do {
            let port = try #require(listener.localAddress?.port)
            let client = try TestClient(port: port)
            // On loopback the handshake is over when connect returns: the connection waits in the backlog.
            let server = try #require(try listener.accept())
            return (listener, server, client)
        } catch {
            listener.close()
            throw error
        }
    }

    /// Writes `bytes` whole (they fit the socket's buffer).
    private static func write(_ bytes: [UInt8], to socket: Socket) {
        let result = bytes.withUnsafeBytes { socket.write($0) }
        #expect(result == .written(bytes.count))
    }

    /// The peer read every byte and the end, and so acknowledged the data; Linux still counts our
    /// FIN's sequence number until the peer acknowledges the FIN too, which it delays (40 ms or more,
    /// or until it closes). The FIN is no data: nothing is left to deliver.
    @Test func afterTheDataIsReadOurFINDoesNotCount() throws {
        let (listener, server, client) = try Self.connectedPair()
        defer { listener.close(); server.close() }
        let bytes = [UInt8](repeating: 0x2A, count: 1024)
        Self.write(bytes, to: server)
        server.shutdownWrite()
        #expect(try client.readToEnd() == bytes)
        #expect(server.unacknowledgedBytes == 0)
    }

    /// Data the peer has not taken still counts, with our side shut down as without.
    @Test func dataTheClientHasNotReadStillCounts() throws {
        let (listener, server, client) = try Self.connectedPair()
        defer { listener.close(); server.close() }
        // More than the client's receive buffer holds, so that some stays in ours unacknowledged.
        var written = 0
        let chunk = [UInt8](repeating: 0x2A, count: 65_536)
        writing: while written < 64 << 20 {
            switch chunk.withUnsafeBytes({ server.write($0) }) {
            case .written(let count): written += count
            case .wouldBlock: break writing
            case .failed(let error): Issue.record("write: \(error)"); return
            }
        }
        let beforeShutdown = try #require(server.unacknowledgedBytes)
        #expect(beforeShutdown > 0 && beforeShutdown <= written)
        server.shutdownWrite()
        let afterShutdown = try #require(server.unacknowledgedBytes)
        #expect(afterShutdown > 0 && afterShutdown <= written)
        #expect(try client.readToEnd().count == written)
    }
}
