/// A listening socket on the loop: accepts connections and hands each to `onAccept`.
final class Listener: LoopHandler {
    private let socket: Socket
    private unowned let loop: EventLoop
    private let onAccept: (Socket) throws -> Void
    private let once: Bool
    private var closed = false

    /// Creates a listener; with `once`, it stops after the first connection and gives its socket
    /// back to the loop's pool of passive listeners instead of closing it.
    init(socket: Socket, loop: EventLoop, once: Bool = false, onAccept: @escaping (Socket) throws -> Void) {
        self.socket = socket
        self.loop = loop
        self.once = once
        self.onAccept = onAccept
    }

    /// The bound port.
    var port: UInt16 { socket.localAddress?.port ?? 0 }

    /// Accepts what is pending, up to a batch, so that one busy listener cannot starve the loop.
    func handle(_ readiness: Readiness) {
        for _ in 0..<128 where !closed {
            let client: Socket?
            do {
                client = try socket.accept()
            } catch {
                // Out of descriptors, typically: stop accepting for a moment instead of spinning.
                loop.core.logger.log(.error, "\(error); pausing accepts for 100 ms")
                pauseAccepting()
                return
            }
            guard let client else { return }
            if once {
                closed = true
                loop.remove(fd: socket.fd)
                loop.returnPassiveListener(socket)
            }
            do {
                try onAccept(client)
            } catch {
                loop.core.logger.log(.error, "cannot serve an accepted connection: \(error)")
                client.close()
            }
        }
    }

    private func pauseAccepting() {
        try? loop.selector.modify(socket.fd, interest: [])
        loop.schedule(after: .milliseconds(100)) { [weak self] in
            guard let self, !self.closed else { return }
            try? self.loop.selector.modify(self.socket.fd, interest: .read)
        }
    }

    func close(_ reason: CloseReason) {
        guard !closed else { return }
        closed = true
        loop.remove(fd: socket.fd)
        socket.close()
    }
}
