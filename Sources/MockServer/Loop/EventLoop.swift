/// One thread's readiness loop: it owns the listeners and connections of one server.
///
/// Everything here runs on the loop's thread; other threads reach it only through ``LoopInbox``.
/// Pauses are timers on this loop, so a paused connection holds no thread.
final class EventLoop {
    let selector: Selector
    let core: ServerCore
    let inbox: LoopInbox
    /// The substitution values that do not change while the server runs (data is added per reply).
    let context: SubstitutionContext
    /// A scratch buffer for reads, shared by every connection of the loop.
    let readBuffer: UnsafeMutableRawBufferPointer
    private var handlers: [Int32: any LoopHandler] = [:]
    private var timers = TimerQueue()
    private var running = true
    /// Passive-data listeners that served their one connection, kept for the next `«passive»`:
    /// binding a new port 0 slows down (milliseconds) once thousands of finished data
    /// connections sit in TIME_WAIT, as they do under a busy test suite.
    private var passiveListeners: [Socket] = []
    private static let passivePoolLimit = 64
    /// How long the loop keeps polling after activity before it sleeps, in nanoseconds.
    private static let spinWindow: UInt64 = 50_000

    init(selector: Selector, inbox: LoopInbox, core: ServerCore, context: SubstitutionContext) {
        self.selector = selector
        self.inbox = inbox
        self.core = core
        self.context = context
        self.readBuffer = .allocate(byteCount: 64 * 1024, alignment: 16)
    }

    /// Runs until ``stop()`` is called from a task, then closes everything it owns.
    func run() {
        var lastActivity: UInt64 = 0
        while running {
            let now = MonotonicClock.now()
            var timeout = timers.nextDeadline.map { deadline in deadline > now ? deadline - now : 0 }
            // Right after activity, poll without sleeping for a short while: a peer's next request
            // usually follows within one round trip, and a thread that has gone to sleep adds a
            // wake-up's latency to it. Idle loops sleep at once.
            if now &- lastActivity < Self.spinWindow { timeout = 0 }
            let woken: Bool
            var events = 0
            do {
                woken = try selector.wait(timeout: timeout) { fd, readiness in
                    events += 1
                    handlers[fd]?.handle(readiness)
                }
                if events > 0 { lastActivity = MonotonicClock.now() }
            } catch {
                core.logger.log(.error, "event loop stopped: \(error)")
                break
            }
            if woken {
                for task in inbox.drain() { task(self) }
            }
            if !timers.isEmpty {
                let now = MonotonicClock.now()
                while let action = timers.popDue(now: now) { action() }
            }
        }
        shutDown()
    }

    /// Ends ``run()`` after the current iteration.
    func stop() {
        running = false
    }

    /// Registers a handler for `fd`.
    func add(_ handler: any LoopHandler, fd: Int32, interest: Interest) throws {
        try selector.register(fd, interest: interest)
        handlers[fd] = handler
    }

    /// Adopts a descriptor already registered with the selector.
    func adopt(_ handler: any LoopHandler, fd: Int32) {
        handlers[fd] = handler
    }

    /// Forgets the handler of `fd`; the caller closes the descriptor.
    func remove(fd: Int32) {
        selector.deregister(fd)
        handlers[fd] = nil
    }

    /// Runs `action` on this loop after `delay`.
    func schedule(after delay: Duration, _ action: @escaping () -> Void) {
        let (seconds, attoseconds) = delay.components
        let nanoseconds = UInt64(clamping: seconds) &* 1_000_000_000 &+ UInt64(clamping: attoseconds / 1_000_000_000)
        timers.schedule(at: MonotonicClock.now() &+ nanoseconds, action)
    }

    /// A listening socket for a passive data connection: a pooled one whose port is not `excluded`
    /// (with any stray connection in its backlog refused), or a new one on `host`, port 0.
    ///
    /// A connection never gets the port it used last: URLSession's libcurl, handed the same
    /// host and port for two data connections in a row, sometimes never connects the second.
    func takePassiveListener(host: String, excluding excluded: UInt16?) throws -> Socket {
        var index = passiveListeners.startIndex
        while index < passiveListeners.endIndex {
            let socket = passiveListeners[index]
            guard socket.localAddress?.port != excluded else {
                index += 1
                continue
            }
            passiveListeners.remove(at: index)
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
    func returnPassiveListener(_ socket: Socket) {
        if running && passiveListeners.count < Self.passivePoolLimit {
            passiveListeners.append(socket)
        } else {
            socket.close()
        }
    }

    /// A new connection number.
    func makeConnectionID() -> Int {
        core.connectionIDs.withLock { next in
            next += 1
            return next
        }
    }

    private func shutDown() {
        timers.removeAll()
        for handler in handlers.values { handler.close(.serverStopped) }
        handlers.removeAll()
        for socket in passiveListeners { socket.close() }
        passiveListeners.removeAll()
        selector.close()
        readBuffer.deallocate()
    }
}
