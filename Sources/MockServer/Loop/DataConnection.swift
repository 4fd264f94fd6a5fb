/// A connection to the passive-data port, in the original MockServer's manner: it is sent the
/// server's ``MockServer/data`` and then closed; bytes the peer sends are counted and dropped.
final class DataConnection: LoopHandler {
    let id: Int
    private let socket: Socket
    private unowned let loop: EventLoop
    private var output = OutputBuffer()
    private var received = 0
    private var sentAll = false
    private var closed = false

    init(socket: Socket, loop: EventLoop) {
        self.id = loop.makeConnectionID()
        self.socket = socket
        self.loop = loop
    }

    func start() throws {
        socket.setNoDelay()
        let peer = socket.peerAddress?.description ?? "unknown"
        loop.core.record(.connected(peer: peer), connection: id, channel: .data)
        let data = loop.core.data
        output.append(data)
        try loop.add(self, fd: socket.fd, interest: [.read, .write])
        loop.core.record(.dataSent(data.count), connection: id, channel: .data)
        send()
    }

    func handle(_ readiness: Readiness) {
        if readiness.writable && !sentAll { send() }
        if !closed && readiness.readable { drain() }
        if !closed && readiness.failed { close(sentAll ? .transferComplete : .peerVanished) }
    }

    private func send() {
        if let error = output.write(to: socket) {
            close(error.isPeerGone ? .peerVanished : .failed(error.description))
            return
        }
        guard output.isEmpty else { return }
        sentAll = true
        // Half-close so the peer sees the end of the data; the socket closes once the peer closes too.
        socket.shutdownWrite()
        try? loop.selector.modify(socket.fd, interest: .read)
    }

    private func drain() {
        switch socket.read(into: loop.readBuffer) {
        case .bytes(let count):
            received += count
        case .wouldBlock:
            break
        case .endOfFile:
            if received > 0 { loop.core.record(.dataReceived(received), connection: id, channel: .data) }
            if sentAll {
                close(.transferComplete)
            } else {
                // The peer is done sending; keep writing until everything has gone.
                try? loop.selector.modify(socket.fd, interest: .write)
            }
        case .failed(let error):
            close(error.isPeerGone ? .peerVanished : .failed(error.description))
        }
    }

    func close(_ reason: CloseReason) {
        guard !closed else { return }
        closed = true
        loop.remove(fd: socket.fd)
        socket.close()
        output.removeAll()
        loop.core.record(.closed(reason), connection: id, channel: .data)
    }
}
