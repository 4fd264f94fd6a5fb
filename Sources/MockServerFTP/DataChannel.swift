import MockServerCore
import MockServerTLS

/// The data connections of one FTP control connection: its own passive listener (`«passive»`) or
/// an active-mode address (`PORT`/`EPRT`), and the transfer under way.
///
/// Each control connection has its own, so parallel sessions never see each other's bytes.
package final class DataChannel {
    private unowned let loop: EventLoop
    private let pool: ListenerPool
    private let connectionID: Int
    private var listener: Listener?
    private var activeTarget: NetworkAddress?
    private var ready: DataTransfer?
    private var waiting: (job: DataTransfer.Job, completion: (DataTransfer.Outcome) -> Void)?
    private var current: DataTransfer?
    /// `«refuse-data»`: the next transfer fails without a data connection.
    private var refused = false
    /// `{"delay-data": …}`: the next transfer starts only after this long.
    private var delay: Duration?
    private var closed = false
    /// TLS for data connections from now on (`PROT P`), or `nil` for clear ones (`PROT C`).
    package var protection: DataProtection?

    /// The port of the passive listener opened last, while the channel has one.
    package private(set) var passivePort: UInt16?
    /// The port of the previous passive listener, never handed out twice in a row.
    private var previousPassivePort: UInt16?

    private let peerHost: String?

    package init(loop: EventLoop, pool: ListenerPool, connectionID: Int, peerHost: String?) {
        self.loop = loop
        self.pool = pool
        self.connectionID = connectionID
        self.peerHost = peerHost
    }

    /// Whether a transfer has somewhere to go: a passive listener, an early connection or an address.
    package var hasRoute: Bool { listener != nil || ready != nil || activeTarget != nil || refused }

    /// Refuses the next data connection: closes the passive listener (a client connecting gets
    /// "connection refused"), drops a connection already made, forgets the active address.
    package func refuseNext() {
        reset()
        refused = true
    }

    /// Holds the next transfer back for `duration` before it uses its data connection.
    package func delayNext(by duration: Duration) {
        delay = duration
    }

    /// Opens a new passive listener on `host`, replacing any earlier route.
    ///
    /// - Returns: the listener's port.
    package func openPassive(host: String) throws -> UInt16 {
        let previous = passivePort ?? previousPassivePort
        reset()
        let (socket, port) = try pool.take(host: host, excluding: previous)
        let listener = Listener(socket: socket, loop: loop, afterFirst: { [pool] in pool.give($0, port: port) }) { [unowned self] client in
            try accepted(client)
        }
        do {
            try listener.listen()
        } catch {
            socket.close()
            throw error
        }
        self.listener = listener
        passivePort = port
        previousPassivePort = port
        return port
    }

    /// Makes the next transfer connect to `target`, replacing any earlier route.
    package func useActive(_ target: NetworkAddress) {
        reset()
        activeTarget = target
    }

    /// Runs `job` on the next data connection; `completion` runs on the loop, never before this returns.
    package func start(_ job: DataTransfer.Job, completion: @escaping (DataTransfer.Outcome) -> Void) {
        if refused {
            refused = false
            loop.schedule(after: .zero) { completion(.refused) }
        } else if let delay {
            self.delay = nil
            loop.schedule(after: delay) { [weak self] in
                guard let self, !self.closed else { return }
                self.start(job, completion: completion)
            }
        } else if let ready {
            self.ready = nil
            run(job, on: ready, completion: completion)
        } else if let target = activeTarget {
            activeTarget = nil
            do {
                run(job, on: try DataTransfer.connecting(to: target, loop: loop, connectionID: connectionID, protection: protection), completion: completion)
            } catch {
                loop.schedule(after: .zero) { completion(.failed("\(error)")) }
            }
        } else if listener != nil {
            waiting = (job, completion)
        } else {
            loop.schedule(after: .zero) { completion(.failed("no data connection")) }
        }
    }

    private func accepted(_ client: Socket) throws {
        listener = nil
        if let peerHost, let host = client.peerAddress?.host, host != peerHost {
            // Only the control connection's own host may take its data connection.
            loop.logger.log(.warning, "refused a data connection from \(host)", connection: connectionID)
            client.close()
            waiting.map { waiting in loop.schedule(after: .zero) { waiting.completion(.failed("data connection from another host")) } }
            waiting = nil
            return
        }
        let socket = try DataTransfer.accepted(client, loop: loop, connectionID: connectionID, protection: protection)
        if let waiting {
            self.waiting = nil
            run(waiting.job, on: socket, completion: waiting.completion)
        } else {
            ready = socket
        }
    }

    private func run(_ job: DataTransfer.Job, on socket: DataTransfer, completion: @escaping (DataTransfer.Outcome) -> Void) {
        current = socket
        socket.begin(job) { [weak self] outcome in
            self?.current = nil
            completion(outcome)
        }
    }

    /// Drops the listener, an unused early connection and the active address.
    private func reset() {
        listener?.close(.transferComplete)
        listener = nil
        ready?.close(.script)
        ready = nil
        activeTarget = nil
        passivePort = nil
        refused = false
    }

    /// Closes everything; a transfer under way is abandoned.
    package func close() {
        closed = true
        reset()
        current?.close(.serverStopped)
        current = nil
        waiting = nil
    }
}
