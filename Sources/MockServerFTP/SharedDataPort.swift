import MockServerCore

/// The original MockServer's shared passive-data port: whoever connects is sent the server's data at
/// once; no control connection waits for the outcome.
package enum SharedDataPort {
    /// A listener on `socket` that sends `data()` to every connection it accepts.
    package static func listener(socket: Socket, loop: EventLoop, data: @escaping () -> [UInt8]) -> Listener {
        Listener(socket: socket, loop: loop) { [unowned loop] client in
            try DataTransfer.accepted(client, loop: loop, connectionID: loop.makeConnectionID()).begin(.serve(data())) { _ in }
        }
    }
}
