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
        /// The peer closed after sending this many bytes (they went to the job's `complete`).
        case received(Int)
        /// The upload's connection was quiet for its settle time after this many bytes: the control
        /// connection goes on while the rest is read; the bytes go to the job's `complete` at the end.
        case settled(Int)
        case aborted
        case failed(String)
        /// The script refused the data connection (`«refuse-data»`).
        case refused
    }

    /// What to carry.
    package enum Job {
        case send([UInt8], partial: Bool)
        /// Receives until the peer closes and hands every byte to `complete`. With `settle`, the
        /// transfer is reported ``Outcome/settled(_:)`` once the connection has been quiet that long
        /// after its first byte, and reading goes on to the end.
        case receive(settle: Duration?, complete: ([UInt8]) -> Void)
        /// The shared data port's way: send the bytes and shut down sending, count and drop what the
        /// peer sends, and close when the peer has closed too.
        case serve([UInt8])
    }

    /// Where an upload (``Job/receive(settle:complete:)``) stands.
    private struct Upload {
        let settle: Duration?
        let complete: ([UInt8]) -> Void
        /// When the last bytes arrived (monotonic nanoseconds).
        var lastByteAt: UInt64 = 0
        var lastProgressAt: UInt64 = 0
        var settled = false
        var checkPending = false
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
    private var upload: Upload?
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
        case .receive(let settle, let complete):
            upload = Upload(settle: settle.flatMap { $0 > .zero ? $0 : nil }, complete: complete)
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
            receivedCount += count
            if case .receiving = state {
                received.append(contentsOf: loop.readBuffer[..<count])
                uploadProgressed()
            }
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
                loop.logger.log(.debug, "upload complete at the end of its data connection: \(received.count) bytes", connection: connectionID)
                upload?.complete(received)
                finish(.received(received.count), reason: .transferComplete)
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
            } else if case .receiving = state, let upload, upload.settled {
                // The control connection has gone on already: keep what arrived, recorded as the upload.
                loop.logger.log(.warning, "upload's data connection failed after \(received.count) bytes: \(error); recording what arrived", connection: connectionID)
                loop.environment.record(.dataReceived(received.count), connection: connectionID, channel: .data)
                upload.complete(received)
                finish(.failed("\(error)"), reason: error.isPeerGone ? .peerVanished : .failed(error.description))
            } else {
                finish(.failed("\(error)"), reason: error.isPeerGone ? .peerVanished : .failed(error.description))
            }
        }
    }

    // MARK: The settle rule for uploads

    /// Notes bytes of an upload: progress in the transcript (at most every 100 ms), and the quiet
    /// time's clock.
    private func uploadProgressed() {
        guard var current = upload else { return }
        let now = MonotonicClock.now()
        current.lastByteAt = now
        if now &- current.lastProgressAt >= 100_000_000 {
            current.lastProgressAt = now
            loop.environment.record(.dataProgress(received.count), connection: connectionID, channel: .data)
            loop.logger.log(.debug, "upload: \(received.count) bytes so far", connection: connectionID)
        }
        let scheduleCheck = current.settle != nil && !current.settled && !current.checkPending
        if scheduleCheck { current.checkPending = true }
        upload = current
        if scheduleCheck, let settle = current.settle { scheduleSettleCheck(after: settle) }
    }

    private func scheduleSettleCheck(after delay: Duration) {
        loop.schedule(after: delay) { [weak self] in self?.checkSettled() }
    }

    /// Reports the upload settled once its connection has been quiet for the settle time; otherwise
    /// looks again when it could be.
    private func checkSettled() {
        guard case .receiving = state, var current = upload, let settle = current.settle, !current.settled else { return }
        let quiet = Duration.nanoseconds(Int64(clamping: MonotonicClock.now() &- current.lastByteAt))
        guard quiet >= settle else {
            scheduleSettleCheck(after: settle - quiet)
            return
        }
        current.checkPending = false
        current.settled = true
        upload = current
        loop.environment.record(.uploadSettled(received: received.count, quiet: settle), connection: connectionID, channel: .data)
        loop.logger.log(.debug, "upload quiet for \(settle) after \(received.count) bytes: the reply goes on, reading to the end", connection: connectionID)
        let completion = self.completion
        self.completion = nil
        completion?(.settled(received.count))
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
