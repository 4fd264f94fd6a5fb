/// A connection's TCP socket, watched by the loop's selector.
package final class SocketTransport: StreamTransport {
    private let socket: Socket
    package let peerAddress: SocketAddress?
    package let localAddress: SocketAddress?

    package init(_ socket: Socket) {
        self.socket = socket
        self.peerAddress = socket.peerAddress
        self.localAddress = socket.localAddress
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

    package func connectionError(to target: SocketAddress) -> SocketError? {
        socket.pendingError(address: target)
    }

    package func shutdownWrite() {
        socket.shutdownWrite()
    }

    package func close(reset: Bool) {
        if reset { socket.reset() } else { socket.close() }
    }
}
