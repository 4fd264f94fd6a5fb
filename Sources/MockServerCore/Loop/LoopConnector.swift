/// Opens connections over a ``MemoryTransport`` on a running server's loop, each run by a driver
/// made for it (the same kind the server's listener gives a socket), so that a client in the same
/// process is answered exactly as one on the network, without a socket.
package final class LoopConnector: Sendable {
    private let inbox: LoopInbox
    private let makeDriver: @Sendable () -> any StreamDriver
    private let open = Locked(true)

    package init(inbox: LoopInbox, makeDriver: @escaping @Sendable () -> any StreamDriver) {
        self.inbox = inbox
        self.makeDriver = makeDriver
    }

    /// A new connection whose output goes to `output` (on the loop's thread), or `nil` once the
    /// server has stopped.
    package func connect(output: @escaping @Sendable (MemoryTransport.Event) -> Void) -> MemoryConnection? {
        // Created here, then used only on the loop: the inbox hands it over.
        let transport = LoopBound(MemoryTransport(output: output))
        let makeDriver = makeDriver
        let accepted = open.withLock { open in
            guard open else { return false }
            inbox.execute { loop in
                guard loop.isRunning else { return output(.closed) }
                do {
                    try StreamConnection(transport: transport.value, loop: loop, driver: makeDriver()).start()
                } catch {
                    output(.reset)
                }
            }
            return true
        }
        return accepted ? MemoryConnection(inbox: inbox, transport: transport) : nil
    }

    /// Refuses further connections (the server is stopping).
    package func shut() {
        open.withLock { $0 = false }
    }
}
