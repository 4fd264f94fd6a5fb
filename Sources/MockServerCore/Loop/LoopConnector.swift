/// Opens connections over a ``MemoryTransport`` on a running server's loop, each run by a driver
/// made for it (the same kind the server's listener gives a socket), so that a client in the same
/// process is answered exactly as one on the network, without a socket.
package final class LoopConnector: Sendable {
    /// The loop the connections run on.
    package let inbox: LoopInbox
    private let makeDriver: @Sendable () -> any StreamDriver
    private let open = Locked(true)

    package init(inbox: LoopInbox, makeDriver: @escaping @Sendable () -> any StreamDriver) {
        self.inbox = inbox
        self.makeDriver = makeDriver
    }

    /// A new connection whose output goes to `output` (on the loop's thread), or `nil` once the
    /// server has stopped. `prepare` gets the connection before anything happens on it (so that
    /// its first output finds it stored); `firstBytes` arrive as its first input, and `then` runs on
    /// the loop once it has started (to schedule a timeout, say), in the same trip to the loop.
    @discardableResult
    ///
    /// `driver`, when given, makes the connection's driver in place of the server's usual one;
    /// `connectionID` is its number when one was taken already.
    package func connect(prepare: (MemoryConnection) -> Void = { _ in }, sending firstBytes: [UInt8] = [],
                         driver: (@Sendable () -> any StreamDriver)? = nil, connectionID: Int? = nil,
                         then: (@Sendable (EventLoop) -> Void)? = nil,
                         output: @escaping @Sendable (MemoryTransport.Event) -> Void) -> MemoryConnection? {
        // Created here, then used only on the loop: the inbox hands it over.
        let transport = LoopBound(MemoryTransport(output: output))
        let makeDriver = driver ?? makeDriver
        let connection = MemoryConnection(inbox: inbox, transport: transport)
        let accepted = open.withLock { open in
            guard open else { return false }
            prepare(connection)
            inbox.execute { loop in
                guard loop.isRunning else { return output(.closed) }
                do {
                    try StreamConnection(transport: transport.value, loop: loop, driver: makeDriver(), id: connectionID).start()
                } catch {
                    return output(.reset)
                }
                if !firstBytes.isEmpty { transport.value.receive(firstBytes) }
                then?(loop)
            }
            return true
        }
        return accepted ? connection : nil
    }

    /// Whether connections are still taken (the server has not begun to stop).
    package var isOpen: Bool { open.withLock { $0 } }

    /// Refuses further connections (the server is stopping).
    package func shut() {
        open.withLock { $0 = false }
    }
}
