/// A client's end of a connection over a ``MemoryTransport``, usable from any thread: each call is
/// carried out on the server's loop, in order.
package struct MemoryConnection: Sendable {
    private let inbox: LoopInbox
    private let transport: LoopBound<MemoryTransport>

    init(inbox: LoopInbox, transport: LoopBound<MemoryTransport>) {
        self.inbox = inbox
        self.transport = transport
    }

    /// Sends bytes to the server.
    package func send(_ bytes: [UInt8]) {
        let transport = transport
        inbox.execute { _ in transport.value.receive(bytes) }
    }

    /// Closes the client's end, as a client does once it has its answer.
    package func close() {
        let transport = transport
        inbox.execute { _ in transport.value.receiveEnd() }
    }

    /// Goes away at once (a cancelled request): the server's pauses and pending answers for this
    /// connection are cancelled.
    package func abandon() {
        let transport = transport
        inbox.execute { _ in transport.value.abandon() }
    }
}
