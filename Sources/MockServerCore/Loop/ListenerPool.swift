/// The one-connection listeners of one loop that served their connection, kept for the next one
/// (FTP's passive data ports): binding a new port 0 slows down (milliseconds) once thousands of
/// finished connections sit in TIME_WAIT, as they do under a busy test suite.
///
/// Lives on the loop's thread; the pooled sockets are closed when the loop shuts down.
package final class ListenerPool {
    private unowned let loop: EventLoop
    private var sockets: [Socket] = []
    private static let limit = 64

    package init(loop: EventLoop) {
        self.loop = loop
        loop.onShutdown { [unowned self] in
            for socket in self.sockets { socket.close() }
            self.sockets.removeAll()
        }
    }

    /// A listening socket for one connection: a pooled one whose port is not `excluded`
    /// (with any stray connection in its backlog refused), or a new one on `host`, port 0.
    ///
    /// A connection never gets the port it used last: URLSession's libcurl, handed the same
    /// host and port for two data connections in a row, sometimes never connects the second.
    package func take(host: String, excluding excluded: UInt16?) throws -> Socket {
        var index = sockets.startIndex
        while index < sockets.endIndex {
            let socket = sockets[index]
            guard socket.localAddress?.port != excluded else {
                index += 1
                continue
            }
            sockets.remove(at: index)
            do {
                while let stray = try socket.accept() { stray.close() }
                return socket
            } catch {
                socket.close()
            }
        }
        return try Socket.listening(on: SocketAddress(host: host, port: 0), backlog: 8)
    }

    /// Keeps a passive listener that accepted its connection for reuse, or closes it.
    package func give(_ socket: Socket) {
        if loop.isRunning && sockets.count < Self.limit {
            sockets.append(socket)
        } else {
            socket.close()
        }
    }
}
