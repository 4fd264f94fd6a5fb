import MockServerCore

/// One data connection: of a control connection, where it waits for a transfer, carries it out and
/// closes; or of the shared passive-data port (``Job/serve(_:)``), where it is sent the server's
/// data at once, as in the original MockServer.
///
/// A download is finished only when every byte was written, our side was shut down, and the peer's
/// TCP has acknowledged every byte (or the peer closed): the data is then readable on the client's
/// side, so the control reply (226) cannot overtake it. Waiting for the client to close first would
/// deadlock with clients that close the data connection only after reading the 226 (URLSession's
/// libcurl does on large files).
package final class DataSocket: LoopHandler {
    /// How a transfer ended.
    package enum Outcome {
        case sent(Int)
        case received([UInt8])
        case aborted
        case failed(String)
        /// The script refused the data connection (`«refuse-data»`).
        case refused
    }

    /// What to carry.
    package enum Job {
        case send([UInt8], partial: Bool)
        case receive
        /// The shared data port's way: send the bytes and shut down sending, count and drop what the
        /// peer sends, and close when the peer has closed too.
        case serve([UInt8])
    }

    private enum State {
        case connecting(SocketAddress)
        case idle
        case sending(partial: Bool)
        case draining
        case receiving
        /// ``Job/serve(_:)``: sending (until `sentAll`) and counting what the peer sends until its EOF.
        case serving(sentAll: Bool, peerDone: Bool)
        /// The transfer is over and recorded; the socket waits for the client's FIN to reset it.
        case lingering
        case closed
    }

    private let socket: Socket
    private unowned let loop: EventLoop
    private let connectionID: Int
    private var state: State
    private var output = OutputBuffer()
    private var sent = 0
    private var received: [UInt8] = []
    private var receivedCount = 0
    private var job: Job?
    private var completion: ((Outcome) -> Void)?
    /// Whether `connected` was recorded, so that `closed` is recorded only for a connection that opened.
    private var recordedOpen = false

    /// Wraps an accepted socket (`connecting == nil`) or one whose `connect` is in progress.
    package init(socket: Socket, loop: EventLoop, connectionID: Int, connecting target: SocketAddress? = nil) throws {
        self.socket = socket
        self.loop = loop
        self.connectionID = connectionID
        self.state = target.map(State.connecting) ?? .idle
        socket.setNoDelay()
        try loop.add(self, fd: socket.fd, interest: target == nil ? [] : .write)
        if target == nil {
            loop.environment.record(.connected(peer: socket.peerAddress?.description ?? "unknown"), connection: connectionID, channel: .data)
            recordedOpen = true
        }
    }

    /// Starts `job`; `completion` runs on the loop once it has ended and the socket is closed.
    package func begin(_ job: Job, completion: @escaping (Outcome) -> Void) {
        self.job = job
        self.completion = completion
        if case .idle = state { run(job) }
    }

    private func run(_ job: Job) {
        switch job {
        case .send(let bytes, let partial):
            output.append(partial ? Array(bytes.prefix(bytes.count / 2)) : bytes)
            state = .sending(partial: partial)
            setInterest(.write)
            send()
        case .receive:
            state = .receiving
            setInterest(.read)
        case .serve(let bytes):
            output.append(bytes)
            loop.environment.record(.dataSent(bytes.count), connection: connectionID, channel: .data)
            state = .serving(sentAll: false, peerDone: false)
            setInterest([.read, .write])
            send()
        }
    }

    package func handle(_ readiness: Readiness) {
        switch state {
        case .connecting(let target):
            guard readiness.writable || readiness.failed else { return }
            if let error = socket.pendingError(address: target) {
                finish(.failed("\(error)"), reason: .failed("\(error)"))
                return
            }
            loop.environment.record(.connected(peer: target.description), connection: connectionID, channel: .data)
            recordedOpen = true
            state = .idle
            setInterest([])
            if let job { run(job) }
        case .idle:
            // The client connected early; a hang-up before the transfer shows as a failed transfer later.
            if readiness.failed { setInterest([]) }
        case .sending:
            if readiness.writable || readiness.failed { send() }
        case .draining, .receiving:
            if readiness.readable || readiness.failed { read() }
        case .serving(let sentAll, _):
            if readiness.writable && !sentAll { send() }
            if case .serving = state, readiness.readable || readiness.failed { read() }
        case .lingering:
            if readiness.readable || readiness.failed { linger() }
        case .closed:
            break
        }
    }

    private func send() {
        let before = output.count
        if let error = output.write(to: socket) {
            sent += before - output.count
            finish(.failed("\(error)"), reason: error.isPeerGone ? .peerVanished : .failed(error.description))
            return
        }
        sent += before - output.count
        if case .serving(_, let peerDone) = state {
            guard output.isEmpty else { return }
            socket.shutdownWrite()
            if peerDone {
                finish(.sent(sent), reason: .transferComplete)
            } else {
                state = .serving(sentAll: true, peerDone: false)
                setInterest(.read)
            }
            return
        }
        guard output.isEmpty, case .sending(let partial) = state else { return }
        if partial {
            loop.environment.record(.dataSent(sent), connection: connectionID, channel: .data)
            finish(.aborted, reason: .script, reset: true)
            return
        }
        socket.shutdownWrite()
        state = .draining
        setInterest(.read)
        checkDelivered(after: .zero)
    }

    /// Finishes the download once the peer's TCP has acknowledged everything, checking again with a
    /// growing interval (up to 10 ms) while bytes are in flight.
    private func checkDelivered(after delay: Duration) {
        loop.schedule(after: delay) { [weak self] in
            guard let self, case .draining = self.state else { return }
            guard let pending = self.socket.unacknowledgedBytes else { return }  // wait for the peer's EOF instead
            if pending == 0 {
                self.loop.environment.record(.dataSent(self.sent), connection: self.connectionID, channel: .data)
                self.finishLingering(.sent(self.sent))
            } else {
                self.checkDelivered(after: min(delay * 2 + .microseconds(100), .milliseconds(10)))
            }
        }
    }

    private func read() {
        switch socket.read(into: loop.readBuffer) {
        case .bytes(let count):
            if case .receiving = state { received.append(contentsOf: loop.readBuffer[..<count]) }
            receivedCount += count
        case .wouldBlock:
            break
        case .endOfFile:
            if case .serving(let sentAll, _) = state {
                if receivedCount > 0 { loop.environment.record(.dataReceived(receivedCount), connection: connectionID, channel: .data) }
                if sentAll {
                    finish(.sent(sent), reason: .transferComplete)
                } else {
                    // The peer is done sending; keep writing until everything has gone.
                    state = .serving(sentAll: false, peerDone: true)
                    setInterest(.write)
                }
            } else if case .receiving = state {
                loop.environment.record(.dataReceived(received.count), connection: connectionID, channel: .data)
                finish(.received(received), reason: .transferComplete)
            } else {
                loop.environment.record(.dataSent(sent), connection: connectionID, channel: .data)
                finish(.sent(sent), reason: .transferComplete, reset: true)
            }
        case .failed(let error):
            if case .serving(sentAll: true, _) = state {
                finish(.sent(sent), reason: .transferComplete)
            } else if case .draining = state {
                // Everything was sent and our side shut down: a reset now only means the peer closed hard.
                loop.environment.record(.dataSent(sent), connection: connectionID, channel: .data)
                finish(.sent(sent), reason: .transferComplete)
            } else {
                finish(.failed("\(error)"), reason: error.isPeerGone ? .peerVanished : .failed(error.description))
            }
        }
    }

    /// Ends the transfer for the control connection now, but keeps the socket until the client's FIN
    /// (at most 2 s) and then resets it: a server that closes a data connection first is left with a
    /// TIME_WAIT entry on its passive port, and a client that reconnects to that port from the same
    /// source port (kernels do pick it again) has its SYN stall on that entry.
    private func finishLingering(_ outcome: Outcome) {
        state = .lingering
        loop.environment.record(.closed(.transferComplete), connection: connectionID, channel: .data)
        recordedOpen = false
        let completion = self.completion
        self.completion = nil
        loop.schedule(after: .seconds(2)) { [weak self] in
            guard let self, case .lingering = self.state else { return }
            _ = self.closeSocket(.transferComplete, reset: false)
        }
        completion?(outcome)
    }

    private func linger() {
        switch socket.read(into: loop.readBuffer) {
        case .bytes, .wouldBlock:
            break
        case .endOfFile, .failed:
            _ = closeSocket(.transferComplete, reset: true)
        }
    }

    /// Changes what the selector reports; when it refuses, the transfer fails with its reason.
    private func setInterest(_ interest: Interest) {
        do {
            try loop.selector.modify(socket.fd, interest: interest)
        } catch {
            finish(.failed("\(error)"), reason: .failed("\(error)"))
        }
    }

    private func finish(_ outcome: Outcome, reason: CloseReason, reset: Bool = false) {
        guard closeSocket(reason, reset: reset) else { return }
        let completion = self.completion
        self.completion = nil
        completion?(outcome)
    }

    /// Closes without telling the control connection (it is closing too).
    package func close(_ reason: CloseReason) {
        _ = closeSocket(reason, reset: false)
        completion = nil
    }

    private func closeSocket(_ reason: CloseReason, reset: Bool) -> Bool {
        let previous = state
        if case .closed = previous { return false }
        state = .closed
        loop.remove(fd: socket.fd)
        if reset { socket.reset() } else { socket.close() }
        output.removeAll()
        if recordedOpen {
            loop.environment.record(.closed(reason), connection: connectionID, channel: .data)
        } else if case .connecting(let target) = previous {
            loop.logger.log(.warning, "active-mode connection to \(target) not made: \(reason)", connection: connectionID)
        }
        return true
    }
}
