/// One thread's readiness loop: it owns the listeners and connections of one server.
///
/// Everything here runs on the loop's thread; other threads reach it only through ``LoopInbox``.
/// Pauses are timers on this loop, so a paused connection holds no thread. The loop knows no
/// protocol: listeners hand accepted sockets to whatever their owner says, and a
/// ``StreamConnection`` runs the steps its driver gives it.
package final class EventLoop {
    package let selector: IOSelector
    /// The transcript, logger and connection numbers of the server this loop serves.
    package let environment: ServerEnvironment
    package let inbox: LoopInbox
    /// A scratch buffer for reads, shared by every connection of the loop.
    package let readBuffer: UnsafeMutableRawBufferPointer
    // The handlers are looked up at every event, on the loop's thread alone, and no access to them
    // is held across a call that could reach them again (a handler that removes itself does so
    // after its look-up ended), so their dynamic exclusivity check is off: one an answer.
    // callgrind http 500 2500: 21,250 vs 24,017 instructions an answer with every hot-path @exclusivity(unchecked) off.
    @exclusivity(unchecked) private var handlers = DescriptorTable<any LoopHandler>()
    /// Handlers without a descriptor (connections over a ``MemoryTransport``), closed at shutdown too.
    private var unwatched: [ObjectIdentifier: any LoopHandler] = [:]
    /// The optimiser proves its accesses apart: no run-time check an answer (callgrind, session 28).
    private var timers = TimerQueue()
    /// Whether the loop is running: ``stop()`` makes it false, and ``shutDown()`` then runs.
    /// No run-time check an answer either, the annotation off (callgrind, session 28).
    package private(set) var isRunning = true
    private var shutdownActions: [() -> Void] = []
    /// What services keep per loop (a pool of listeners, say), by type.
    private var attachments: [ObjectIdentifier: AnyObject] = [:]
    /// What runs once this turn's events, timers and local work are done, before the loop waits again:
    /// read at every turn, about one check an answer without the annotation.
    // callgrind http 500 2500: 21,250 vs 24,017 instructions an answer with every hot-path @exclusivity(unchecked) off.
    @exclusivity(unchecked) private var endOfTurn: [() -> Void] = []

    package init(selector: IOSelector, inbox: LoopInbox, environment: ServerEnvironment) {
        self.selector = selector
        self.inbox = inbox
        self.environment = environment
        self.readBuffer = .allocate(byteCount: 64 * 1024, alignment: 16)
    }

    /// Where this loop's messages go.
    package var logger: MockServerLogger { environment.logger }

    /// Runs until ``stop()`` is called from a task, then closes everything it owns.
    package func run() {
        inbox.claimThread(true)
        defer { inbox.claimThread(false) }
        var spin = SpinPolicy()
        while isRunning {
            let now = MonotonicClock.now()
            var timeout = timers.nextDeadline.map { deadline in deadline > now ? deadline - now : 0 }
            // Right after activity, poll without sleeping for a short while: a quick peer's next
            // request follows within one round trip, and a thread that has gone to sleep adds a
            // wake-up's latency to it. How long, SpinPolicy learns; idle loops sleep at once.
            if spin.polls(at: now) { timeout = 0 }
            let woken: Bool
            var events = 0
            do {
                woken = try selector.wait(timeout: timeout) { fd, readiness in
                    events += 1
                    handlers[fd]?.handle(readiness)
                }
                if events > 0 { spin.activity(at: MonotonicClock.now()) }
            } catch {
                environment.logger.log(.error, "event loop stopped: \(error)")
                break
            }
            if woken {
                for task in inbox.drain() { task(self) }
            }
            if !timers.isEmpty {
                let now = MonotonicClock.now()
                while let action = timers.popDue(now: now) { action() }
            }
            // Work this iteration queued from the loop's own thread (an `async` answer's jobs), and
            // the end of the turn's actions; an action can queue more work from the loop's thread
            // (a TLS flush that drives its connection into an answer whose task hops back to the
            // loop), which nothing would wake the loop for: it runs before the loop waits.
            repeat {
                inbox.runLocal(on: self)
                runEndOfTurn()
            } while inbox.hasLocalWork
        }
        // What other threads queued before the end runs once more, seeing the loop stopped, so
        // that nobody waits for an answer that never comes; later tasks are refused.
        for task in inbox.close() { task(self) }
        inbox.runLocal(on: self)
        runEndOfTurn()
        shutDown()
    }

    /// Runs `action` once everything this turn of the loop handles is done (events, timers, local
    /// work), before it waits for more: for output that is better sent in one piece with whatever
    /// else the turn writes (TLS's session tickets with the answer that follows them).
    package func atEndOfTurn(_ action: @escaping () -> Void) {
        endOfTurn.append(action)
    }

    private func runEndOfTurn() {
        while !endOfTurn.isEmpty {
            let actions = endOfTurn
            endOfTurn.removeAll(keepingCapacity: true)
            for action in actions { action() }
        }
    }

    /// Ends ``run()`` after the current iteration.
    package func stop() {
        isRunning = false
    }

    /// Runs `action` when the loop shuts down, after every handler was closed (a service's pooled
    /// sockets, say).
    package func onShutdown(_ action: @escaping () -> Void) {
        shutdownActions.append(action)
    }

    /// The loop's one object of type `T`, made by `make` the first time it is asked for: state a
    /// service keeps per loop without the loop knowing the service.
    package func attachment<T: AnyObject>(_ type: T.Type, make: () -> T) -> T {
        if let existing = attachments[ObjectIdentifier(type)] as? T { return existing }
        let made = make()
        attachments[ObjectIdentifier(type)] = made
        return made
    }

    /// The loop's object of type `T`, if one was made (see ``attachment(_:make:)``).
    package func existingAttachment<T: AnyObject>(_ type: T.Type) -> T? {
        attachments[ObjectIdentifier(type)] as? T
    }

    /// Registers a handler for `fd`.
    package func add(_ handler: any LoopHandler, fd: Int32, interest: Interest) throws {
        try selector.register(fd, interest: interest)
        handlers[fd] = handler
    }

    /// Adopts a descriptor already registered with the selector.
    package func adopt(_ handler: any LoopHandler, fd: Int32) {
        handlers[fd] = handler
    }

    /// Forgets the handler of `fd`; the caller closes the descriptor.
    package func remove(fd: Int32) {
        selector.deregister(fd)
        handlers[fd] = nil
    }

    /// Keeps `handler`, which has no descriptor, until ``forget(_:)`` or shutdown.
    package func keep(_ handler: any LoopHandler) {
        unwatched[ObjectIdentifier(handler)] = handler
    }

    /// Lets go of a handler kept with ``keep(_:)``.
    package func forget(_ handler: any LoopHandler) {
        unwatched[ObjectIdentifier(handler)] = nil
    }

    /// Runs `action` on this loop after `delay`.
    package func schedule(after delay: Duration, _ action: @escaping () -> Void) {
        timers.schedule(at: MonotonicClock.now() &+ MonotonicClock.nanoseconds(delay), action)
    }

    /// Runs `action` on the loop once the monotonic clock reaches `deadline` (``MonotonicClock/now()``'s
    /// nanoseconds): at once, on the next turn, when it has passed.
    package func schedule(at deadline: UInt64, _ action: @escaping () -> Void) {
        timers.schedule(at: deadline, action)
    }

    /// A new connection number.
    package func makeConnectionID() -> Int {
        environment.makeConnectionID()
    }

    private func shutDown() {
        timers.removeAll()
        for handler in handlers.values { handler.close(.serverStopped) }
        handlers.removeAll()
        for handler in unwatched.values { handler.close(.serverStopped) }
        unwatched.removeAll()
        for action in shutdownActions { action() }
        shutdownActions.removeAll()
        attachments.removeAll()
        selector.close()
        readBuffer.deallocate()
    }
}
