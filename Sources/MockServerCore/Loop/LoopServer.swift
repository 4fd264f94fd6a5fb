/// What every server starts with: its listening sockets bound, a selector watching them, and the
/// event-loop thread that serves them; stopped together. The server says, on the loop's thread,
/// what each listener does with the connections it accepts.
package struct LoopServer: Sendable {
    /// The bound addresses, in the order they were asked for (a port 0 replaced by the one given).
    package let addresses: [NetworkAddress]
    /// How other threads reach the loop.
    package let inbox: LoopInbox
    private let thread: LoopThread

    /// Binds every address of `addresses`; gives the bound addresses to `prepare` (what depends on
    /// the ports, such as `$pasv`), on the calling thread; then starts the loop thread, where
    /// `listeners` makes the listener of each bound socket, in the same order, with what `prepare`
    /// made. Returns once every address is bound, with what `prepare` made.
    ///
    /// - Throws: ``SocketCallError`` naming the call and address (`bind(127.0.0.1:8080): Address already
    ///   in use`); nothing stays open then.
    package static func start<Prepared: Sendable>(
        binding addresses: [NetworkAddress], environment: ServerEnvironment,
        prepare: ([NetworkAddress]) -> Prepared,
        listeners: @escaping @Sendable (EventLoop, [Socket], Prepared) -> [Listener]
    ) throws -> (server: LoopServer, prepared: Prepared) {
        var sockets: [Socket] = []
        let selector: IOSelector
        do {
            for address in addresses { sockets.append(try Socket.listening(on: address)) }
            selector = try IOSelector.make()
            do {
                for socket in sockets { try selector.register(socket.fd, interest: .read) }
            } catch {
                selector.close()
                throw error
            }
        } catch {
            for socket in sockets { socket.close() }
            throw error
        }
        let bound = zip(sockets, addresses).map { socket, requested in socket.localAddress ?? requested }
        let prepared = prepare(bound)
        let inbox = LoopInbox(selector: selector)
        let listening = sockets
        do {
            let thread = try LoopThread.start {
                let loop = EventLoop(selector: selector, inbox: inbox, environment: environment)
                for (socket, listener) in zip(listening, listeners(loop, listening, prepared)) {
                    loop.adopt(listener, fd: socket.fd)
                }
                loop.run()
            }
            return (LoopServer(addresses: bound, inbox: inbox, thread: thread), prepared)
        } catch {
            for socket in sockets { socket.close() }
            selector.close()
            throw error
        }
    }

    /// Closes the listeners and every connection, and waits for the loop's thread to end.
    package func stop() {
        inbox.execute { $0.stop() }
        thread.join()
    }
}
