/// A listening socket on the loop: accepts connections and hands each to a new handler.
final class Listener: LoopHandler {
    private let socket: Socket
    private let channel: Channel
    private unowned let loop: EventLoop
    private var closed = false

    init(socket: Socket, channel: Channel, loop: EventLoop) {
        self.socket = socket
        self.channel = channel
        self.loop = loop
    }

    /// Accepts what is pending, up to a batch, so that one busy listener cannot starve the loop.
    func handle(_ readiness: Readiness) {
        for _ in 0..<128 {
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
            do {
                switch channel {
                case .control: try Connection(socket: client, loop: loop).start()
                case .data: try DataConnection(socket: client, loop: loop).start()
                }
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
