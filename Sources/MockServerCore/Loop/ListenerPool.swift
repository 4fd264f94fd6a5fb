/// The one-connection listeners of one loop that served their connection, kept for the next one
/// (FTP's passive data ports): binding a new port 0 slows down (milliseconds) once thousands of
/// finished connections sit in TIME_WAIT, as they do under a busy test suite.
///
/// Lives on the loop's thread; the pooled sockets are closed when the loop shuts down.
package final class ListenerPool {
    private unowned let loop: EventLoop
    /// The kept sockets with their ports (known, so that taking one asks the system nothing).
    private var sockets: [(socket: Socket, port: UInt16)] = []
    private static let limit = 64

    package init(loop: EventLoop) {
        self.loop = loop
        loop.onShutdown { [unowned self] in
            for kept in self.sockets { kept.socket.close() }
            self.sockets.removeAll()
        }
    }

    /// A listening socket for one connection and its port: a pooled one whose port is not
    /// `excluded` (with any stray connection in its backlog refused), or a new one on `host`, port 0.
    ///
    /// A connection never gets the port it used last: URLSession's libcurl, handed the same
    /// host and port for two data connections in a row, sometimes never connects the second.
    package func take(host: String, excluding excluded: UInt16?) throws -> (socket: Socket, port: UInt16) {
        var index = sockets.startIndex
        while index < sockets.endIndex {
            let kept = sockets[index]
            guard kept.port != excluded else {
                index += 1
                continue
            }
            sockets.remove(at: index)
            do {
                while kept.socket.hasPendingConnection, let stray = try kept.socket.accept() { stray.close() }
                return kept
            } catch {
                kept.socket.close()
            }
        }
        let socket = try Socket.listening(on: NetworkAddress(host: host, port: 0), backlog: 8)
        return (socket, socket.localAddress?.port ?? 0)
    }

    /// Keeps a passive listener that accepted its connection for reuse (with its `port`), or closes it.
    package func give(_ socket: Socket, port: UInt16) {
        if loop.isRunning && sockets.count < Self.limit {
            sockets.append((socket, port))
        } else {
            socket.close()
        }
    }
}
