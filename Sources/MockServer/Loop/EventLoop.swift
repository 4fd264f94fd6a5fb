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

    init(selector: Selector, inbox: LoopInbox, core: ServerCore, context: SubstitutionContext) {
        self.selector = selector
        self.inbox = inbox
        self.core = core
        self.context = context
        self.readBuffer = .allocate(byteCount: 64 * 1024, alignment: 16)
    }

    /// Runs until ``stop()`` is called from a task, then closes everything it owns.
    func run() {
        while running {
            let timeout = timers.nextDeadline.map { deadline in
                let now = MonotonicClock.now()
                return deadline > now ? deadline - now : 0
            }
            let woken: Bool
            do {
                woken = try selector.wait(timeout: timeout) { fd, readiness in
                    handlers[fd]?.handle(readiness)
                }
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
        selector.close()
        readBuffer.deallocate()
    }
}
