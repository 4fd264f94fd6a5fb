import MockServerCore
import MockServerTLS

/// The driver of one FTP data connection, a ``MockServerCore/StreamConnection`` like every other:
/// of a control connection, where it waits for a transfer, carries it out and closes; or of the
/// shared passive-data port (``Job/serve(_:)``), where it is sent the server's data at once, as in
/// the original MockServer.
///
/// A download is finished only when every byte was written, our side was shut down, and the peer's
/// TCP has acknowledged every byte (or the peer closed): the data is then readable on the client's
/// side, so the control reply (226) cannot overtake it. Waiting for the client to close first would
/// deadlock with clients that close the data connection only after reading the 226 (URLSession's
/// libcurl does on large files).
package final class DataTransfer: StreamDriver {
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
        /// The upload passed its limit of this many bytes: the data connection was closed and
        /// nothing was kept.
        case tooLarge(Int)
    }

    /// What to carry.
    package enum Job {
        case send([UInt8], partial: Bool)
        /// Receives until the peer closes and hands every byte to `complete`. With `settle`, the
        /// transfer is reported ``Outcome/settled(_:)`` once the connection has been quiet that long
        /// after its first byte, and reading goes on to the end. Past `limit` bytes the connection
        /// closes and the transfer is ``Outcome/tooLarge(_:)``: an upload is held in memory.
        case receive(settle: Duration?, limit: Int, complete: ([UInt8]) -> Void)
        /// The shared data port's way: send the bytes and shut down sending, count and drop what the
        /// peer sends, and close when the peer has closed too.
        case serve([UInt8])
    }

    /// Where an upload (``Job/receive(settle:complete:)``) stands.
    private struct Upload {
        let settle: Duration?
        /// The most bytes taken.
        let limit: Int
        let complete: ([UInt8]) -> Void
        /// When the last bytes arrived (monotonic nanoseconds).
        var lastByteAt: UInt64 = 0
        var lastProgressAt: UInt64 = 0
        var settled = false
        var checkPending = false
    }

    private enum Phase {
        /// Connected (or connecting), with no job yet.
        case idle
        case sending
        /// Everything was written and our side shut down; waiting for the peer's acknowledgement.
        case draining
        case receiving(Upload)
        /// ``Job/serve(_:)``: sending (until `sentAll`) and counting what the peer sends until its EOF.
        case serving(sentAll: Bool)
        /// The transfer is over and recorded; the connection waits for the client's FIN to reset it.
        case lingering
        case done
    }

    private var phase = Phase.idle
    private var job: Job?
    private var completion: ((Outcome) -> Void)?
    private unowned let loop: EventLoop
    /// The data connection, until it closes.
    private var connection: StreamConnection?
    /// TLS to begin once an outbound (active) connection is made.
    private var protection: DataProtection?
    /// Whether ``opened(_:)`` ran: the connection is made and waits for the job's steps.
    private var isOpen = false
    /// Why the connection closed, once it has.
    private var closedReason: Transcript.CloseReason?
    private var sent = 0
    private var received: [UInt8] = []
    private var receivedCount = 0

    private init(loop: EventLoop) {
        self.loop = loop
    }

    // MARK: Making data connections

    /// A data connection over an accepted socket, numbered as its control connection; TLS with
    /// `protection` (`PROT P`), the server's side of the handshake first.
    package static func accepted(_ socket: Socket, loop: EventLoop, connectionID: Int, protection: DataProtection? = nil) throws -> DataTransfer {
        let transfer = DataTransfer(loop: loop)
        let connection = try protection.map { protection in
            try StreamConnection.acceptingTLS(socket: socket, loop: loop, driver: transfer, context: protection.context, id: connectionID, channel: .data,
                                              recordsOutput: false, requiredSessionTag: protection.requiredSessionTag,
                                              issuesTickets: false)
        } ?? StreamConnection(socket: socket, loop: loop, driver: transfer, id: connectionID, channel: .data, recordsOutput: false)
        transfer.connection = connection
        try connection.start()
        return transfer
    }

    /// A data connection being made to `target` (FTP's active mode), numbered as its control
    /// connection; TLS with `protection`, where the server is still TLS's server (RFC 4217 §7).
    package static func connecting(to target: NetworkAddress, loop: EventLoop, connectionID: Int, protection: DataProtection? = nil) throws -> DataTransfer {
        let transfer = DataTransfer(loop: loop)
        transfer.protection = protection
        transfer.connection = try StreamConnection.connect(to: target, loop: loop, driver: transfer, id: connectionID, channel: .data, recordsOutput: false)
        return transfer
    }

    /// Starts `job`; `completion` runs on the loop once it has ended (for a download, before the
    /// connection lingers for the peer's end).
    package func begin(_ job: Job, completion: @escaping (Outcome) -> Void) {
        self.job = job
        self.completion = completion
        if let closedReason {
            let completion = self.completion
            self.completion = nil
            loop.schedule(after: .zero) { completion?(.failed("\(closedReason)")) }
            return
        }
        if isOpen, let connection { connection.resume(with: steps(for: job, on: connection)) }
    }

    /// Closes without telling the control connection (it is closing too).
    package func close(_ reason: Transcript.CloseReason) {
        completion = nil
        connection?.close(reason)
    }

    // MARK: StreamDriver

    package func opened(_ connection: StreamConnection) -> [StreamStep] {
        if let protection {
            // An active connection, just made: TLS before anything else.
            self.protection = nil
            do {
                try connection.startTLS(context: protection.context, requiredSessionTag: protection.requiredSessionTag, issuesTickets: false)
            } catch {
                return []
            }
        }
        isOpen = true
        guard let job else { return [] }
        return steps(for: job, on: connection)
    }

    package func received(_ bytes: UnsafeRawBufferPointer, on connection: StreamConnection) {
        receivedCount += bytes.count
        if case .receiving(let upload) = phase {
            guard bytes.count <= upload.limit - received.count else { return refuse(upload, on: connection) }
            received.append(contentsOf: bytes)
            uploadProgressed(on: connection)
        }
    }

    package func next(on connection: StreamConnection, inputEnded: Bool) -> DriverDecision {
        switch phase {
        case .idle:
            // The client connected early: no input is read until the job says what to do with it.
            return .wait
        case .sending, .done:
            return .wait
        case .draining:
            guard inputEnded else { return .needInput }
            connection.record(.sent(sent))
            finish(.sent(sent), reason: .transferComplete, reset: true, on: connection)
            return .needInput
        case .receiving(let upload):
            guard inputEnded else { return .needInput }
            connection.record(.received(received.count))
            connection.log(.debug, "upload complete at the end of its data connection: \(received.count) bytes")
            upload.complete(received)
            finish(.received(received.count), reason: .transferComplete, on: connection)
            return .needInput
        case .serving:
            // Asked once everything is sent: what the peer sends is counted until it closes.
            guard inputEnded else { return .needInput }
            if receivedCount > 0 { connection.record(.received(receivedCount)) }
            finish(.sent(sent), reason: .transferComplete, on: connection)
            return .needInput
        case .lingering:
            guard inputEnded else { return .needInput }
            connection.close(.transferComplete, reset: true)
            return .needInput
        }
    }

    package func closed(_ connection: StreamConnection, reason: Transcript.CloseReason) {
        closedReason = reason
        self.connection = nil
        let previous = phase
        phase = .done
        guard let completion else { return }
        self.completion = nil
        switch previous {
        case .serving(sentAll: true):
            connection.recordClosed(.transferComplete)
            completion(.sent(sent))
        case .draining:
            // Everything was sent and our side shut down: a reset now only means the peer closed hard.
            connection.record(.sent(sent))
            connection.recordClosed(.transferComplete)
            completion(.sent(sent))
        case .receiving(let upload) where upload.settled:
            // The control connection has gone on already: keep what arrived, recorded as the upload.
            connection.log(.warning, "upload's data connection failed after \(received.count) bytes: \(reason); recording what arrived")
            connection.record(.received(received.count))
            upload.complete(received)
            completion(.failed("\(reason)"))
        default:
            completion(.failed("\(reason)"))
        }
    }

    // MARK: Jobs

    private func steps(for job: Job, on connection: StreamConnection) -> [StreamStep] {
        switch job {
        case .send(let bytes, let partial):
            phase = .sending
            if partial {
                let half = Array(bytes.prefix(bytes.count / 2))
                return [.send(half), .whenWritten { [unowned self, unowned connection] in
                    sent = half.count
                    connection.record(.sent(sent))
                    finish(.aborted, reason: .script, reset: true, on: connection)
                }]
            }
            return [.send(bytes), .fault(.halfClose), .whenWritten { [unowned self, unowned connection] in
                sent = bytes.count
                phase = .draining
                checkDelivered(after: .zero, on: connection)
            }]
        case .receive(let settle, let limit, let complete):
            // The quiet time counts from the transfer's start too, not only from a byte: a client
            // that sends nothing (an empty body) and keeps the connection open for its 226, as
            // URLSession on Linux does, gets it after the settle time, not after libcurl's minute.
            var upload = Upload(settle: settle.flatMap { $0 > .zero ? $0 : nil }, limit: max(0, limit), complete: complete)
            upload.lastByteAt = MonotonicClock.now()
            upload.checkPending = upload.settle != nil
            phase = .receiving(upload)
            if let settle = upload.settle { scheduleSettleCheck(after: settle, on: connection) }
            return []
        case .serve(let bytes):
            connection.record(.sent(bytes.count))
            phase = .serving(sentAll: false)
            return [.send(bytes), .fault(.halfClose), .whenWritten { [unowned self] in
                sent = bytes.count
                phase = .serving(sentAll: true)
            }]
        }
    }

    /// Finishes the download once the peer's TCP has acknowledged everything, checking again with a
    /// growing interval (up to 10 ms) while bytes are in flight.
    private func checkDelivered(after delay: Duration, on connection: StreamConnection) {
        connection.loop.schedule(after: delay) { [weak self, weak connection] in
            guard let self, let connection, case .draining = self.phase else { return }
            guard let pending = connection.unacknowledgedBytes else { return }  // wait for the peer's EOF instead
            if pending == 0 {
                connection.record(.sent(self.sent))
                self.finishLingering(.sent(self.sent), on: connection)
            } else {
                self.checkDelivered(after: min(delay * 2 + .microseconds(100), .milliseconds(10)), on: connection)
            }
        }
    }

    // MARK: The settle rule for uploads

    /// Notes bytes of an upload: progress in the transcript (at most every 100 ms), and the quiet
    /// time's clock.
    private func uploadProgressed(on connection: StreamConnection) {
        guard case .receiving(var upload) = phase else { return }
        let now = MonotonicClock.now()
        upload.lastByteAt = now
        if now &- upload.lastProgressAt >= 100_000_000 {
            upload.lastProgressAt = now
            connection.record(.note(.uploadProgress(received.count)))
            connection.log(.debug, "upload: \(received.count) bytes so far")
        }
        let scheduleCheck = upload.settle != nil && !upload.settled && !upload.checkPending
        if scheduleCheck { upload.checkPending = true }
        phase = .receiving(upload)
        if scheduleCheck, let settle = upload.settle { scheduleSettleCheck(after: settle, on: connection) }
    }

    private func scheduleSettleCheck(after delay: Duration, on connection: StreamConnection) {
        connection.loop.schedule(after: delay) { [weak self, weak connection] in
            guard let self, let connection else { return }
            self.checkSettled(on: connection)
        }
    }

    /// Reports the upload settled once its connection has been quiet for the settle time; otherwise
    /// looks again when it could be.
    private func checkSettled(on connection: StreamConnection) {
        guard case .receiving(var upload) = phase, let settle = upload.settle, !upload.settled else { return }
        let quiet = Duration.nanoseconds(Int64(clamping: MonotonicClock.now() &- upload.lastByteAt))
        guard quiet >= settle else {
            scheduleSettleCheck(after: settle - quiet, on: connection)
            return
        }
        upload.checkPending = false
        upload.settled = true
        phase = .receiving(upload)
        connection.record(.note(.uploadSettled(received: received.count, quiet: settle)))
        connection.log(.debug, "upload quiet for \(settle) after \(received.count) bytes: the reply goes on, reading to the end")
        let completion = self.completion
        self.completion = nil
        completion?(.settled(received.count))
    }

    // MARK: Ending

    /// Ends the transfer for the control connection now, but keeps the connection until the client's
    /// FIN (at most 2 s) and then resets it: a server that closes a data connection first is left
    /// with a TIME_WAIT entry on its passive port, and a client that reconnects to that port from the
    /// same source port (kernels do pick it again) has its SYN stall on that entry.
    /// An upload past its limit: the connection closes at once (a reset: the client's unread bytes
    /// go with it), nothing is kept, and the control connection answers 552 unless it went on already.
    private func refuse(_ upload: Upload, on connection: StreamConnection) {
        let reason = "an upload longer than the limit of \(upload.limit) bytes"
        connection.log(.warning, "\(reason) (after \(received.count) bytes): closed, nothing kept")
        connection.record(.received(received.count))
        received = []
        phase = .done
        finish(.tooLarge(upload.limit), reason: .malformedInput(reason), reset: true, on: connection)
    }

    private func finishLingering(_ outcome: Outcome, on connection: StreamConnection) {
        phase = .lingering
        connection.recordClosed(.transferComplete)
        let completion = self.completion
        self.completion = nil
        connection.loop.schedule(after: .seconds(2)) { [weak self, weak connection] in
            guard let self, let connection, case .lingering = self.phase else { return }
            connection.close(.transferComplete)
        }
        completion?(outcome)
    }

    private func finish(_ outcome: Outcome, reason: Transcript.CloseReason, reset: Bool = false, on connection: StreamConnection) {
        guard !connection.isClosed else { return }
        let completion = self.completion
        self.completion = nil
        connection.close(reason, reset: reset)
        completion?(outcome)
    }
}
