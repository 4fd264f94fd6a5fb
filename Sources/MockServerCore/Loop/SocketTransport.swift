/// A connection's TCP socket, watched by the loop's selector.
package final class SocketTransport: StreamTransport {
    private let socket: Socket
    /// The addresses once asked for: each is a system call, which a connection that never needs it
    /// (an FTP data connection, its local one) does not make. HTTP reads both once a connection
    /// (``HTTPRequestContext``), so their exclusivity checks are not on a per-answer path.
    private var knownPeerAddress: NetworkAddress?
    private var knownLocalAddress: NetworkAddress?
    /// Whether the descriptor was closed (its number may be another socket's by now).
    private var isClosed = false

    package init(_ socket: Socket) {
        self.socket = socket
    }

    package var peerAddress: NetworkAddress? {
        if knownPeerAddress == nil && !isClosed { knownPeerAddress = socket.peerAddress }
        return knownPeerAddress
    }

    package var localAddress: NetworkAddress? {
        if knownLocalAddress == nil && !isClosed { knownLocalAddress = socket.localAddress }
        return knownLocalAddress
    }

    package var peerDescription: String { peerAddress?.description ?? "unknown" }

    package func attach(_ handler: any LoopHandler, to loop: EventLoop, interest: Interest) throws {
        socket.setNoDelay()
        try loop.add(handler, fd: socket.fd, interest: interest)
    }

    package func setInterest(_ interest: Interest, on loop: EventLoop) throws {
        try loop.selector.modify(socket.fd, interest: interest)
    }

    package func detach(from loop: EventLoop) {
        loop.remove(fd: socket.fd)
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer) -> Socket.ReadResult {
        socket.read(into: buffer)
    }

    package func write(_ buffer: UnsafeRawBufferPointer) -> Socket.WriteResult {
        socket.write(buffer)
    }

    package var unacknowledgedBytes: Int? { socket.unacknowledgedBytes }

    package func connectionError(to target: NetworkAddress) -> SocketCallError? {
        socket.pendingError(address: target)
    }

    package func shutdownWrite() {
        socket.shutdownWrite()
    }

    package func close(reset: Bool) {
        isClosed = true
        if reset { socket.reset() } else { socket.close() }
    }
}
