import MockServerCore
import Testing
import TestSupport

/// ``Socket/hasPendingConnection``, which a listener asks before an `accept` that may find nothing,
/// and FTP's pool of passive listeners, which still refuses a stray connection left in a pooled
/// socket's backlog.
@Suite("Pending connections", .offPool)
struct PendingConnectionTests {
    @Test("a listening socket has a pending connection only while one waits in its backlog")
    func pendingWhileOneWaits() throws {
        let listener = try Socket.listening(on: NetworkAddress(host: "127.0.0.1", port: 0))
        defer { listener.close() }
        #expect(!listener.hasPendingConnection)
        // On loopback the handshake is over when connect returns: the connection waits in the backlog.
        let client = try TestClient(port: try #require(listener.localAddress?.port))
        #expect(listener.hasPendingConnection)
        let server = try #require(try listener.accept())
        server.close()
        #expect(!listener.hasPendingConnection)
        #expect(try client.readToEnd() == [])
    }

    @Test("a pooled passive listener taken again has the stray connection in its backlog accepted and closed")
    func pooledListenerRefusesStrays() throws {
        let selector = try IOSelector.make()
        let loop = EventLoop(selector: selector, inbox: LoopInbox(selector: selector), environment: ServerEnvironment(transcript: Transcript(), logger: .disabled))
        // A stopped loop's run shuts it down at once: the pool's sockets and the selector are closed.
        defer { loop.stop(); loop.run() }
        // As FTP keeps it: the loop holds the pool, which closes its sockets when the loop shuts down.
        let pool = loop.attachment(ListenerPool.self) { ListenerPool(loop: loop) }
        let (socket, port) = try pool.take(host: "127.0.0.1", excluding: nil)
        pool.give(socket, port: port)
        let stray = try TestClient(port: port)
        let (again, againPort) = try pool.take(host: "127.0.0.1", excluding: nil)
        defer { again.close() }
        #expect(againPort == port)
        #expect(!again.hasPendingConnection)
        #expect(try stray.readToEnd() == [])
    }
}
