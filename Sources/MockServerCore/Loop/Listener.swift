/// A listening socket on the loop: accepts connections and hands each to `onAccept`.
package final class Listener: LoopHandler {
    private let socket: Socket
    private unowned let loop: EventLoop
    private let onAccept: (Socket) throws -> Void
    /// Given, the listener stops after its first connection and hands its socket to this instead
    /// of closing it (to a pool of listeners for reuse, say).
    private let afterFirst: ((Socket) -> Void)?
    private var closed = false

    /// Creates a listener that hands each accepted socket to `onAccept`; with `afterFirst`, it
    /// stops after the first connection and gives its listening socket to `afterFirst`.
    package init(socket: Socket, loop: EventLoop, afterFirst: ((Socket) -> Void)? = nil, onAccept: @escaping (Socket) throws -> Void) {
        self.socket = socket
        self.loop = loop
        self.afterFirst = afterFirst
        self.onAccept = onAccept
    }

    /// Starts watching for connections on `loop`.
    package func listen() throws {
        try loop.add(self, fd: socket.fd, interest: .read)
    }

    /// The bound port.
    package var port: UInt16 { socket.localAddress?.port ?? 0 }

    /// Accepts what is pending, up to a batch, so that one busy listener cannot starve the loop.
    package func handle(_ readiness: Readiness) {
        for index in 0..<128 where !closed {
            // The readiness announced one connection; for more, ask first (see
            // `Socket.hasPendingConnection`): most turns have exactly one.
            if index > 0 && !socket.hasPendingConnection { return }
            let client: Socket?
            do {
                client = try socket.accept()
            } catch {
                // Out of descriptors, typically: stop accepting for a moment instead of spinning.
                loop.logger.log(.error, "\(error); pausing accepts for 100 ms")
                pauseAccepting()
                return
            }
            guard let client else { return }
            if let afterFirst {
                closed = true
                loop.remove(fd: socket.fd)
                afterFirst(socket)
            }
            do {
                try onAccept(client)
            } catch {
                loop.logger.log(.error, "cannot serve an accepted connection: \(error)")
                client.close()
            }
        }
    }

    private func pauseAccepting() {
        do {
            try loop.selector.modify(socket.fd, interest: [])
        } catch {
            stopListening(after: error)
            return
        }
        loop.schedule(after: .milliseconds(100)) { [weak self] in
            guard let self, !self.closed else { return }
            do {
                try self.loop.selector.modify(self.socket.fd, interest: .read)
            } catch {
                self.stopListening(after: error)
            }
        }
    }

    /// The selector refused a change for this listener: it is closed rather than left spinning or deaf.
    private func stopListening(after error: any Error) {
        loop.logger.log(.error, "listener on port \(port) closed: \(error)")
        close(.failed("\(error)"))
    }

    package func close(_ reason: Transcript.CloseReason) {
        guard !closed else { return }
        closed = true
        loop.remove(fd: socket.fd)
        socket.close()
    }
}
