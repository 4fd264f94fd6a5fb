import MockServerCore

/// One client connection of a line recording and its upstream connection, on the loop: bytes go
/// across as they come, and the client's lines with the replies to them are kept as a dialogue.
final class RelaySession {
    private enum State {
        /// The upstream connection is being made; client bytes wait.
        case connecting(pending: [UInt8])
        /// Both sides are open.
        case relaying
        /// One side has ended; the other is closing.
        case ending
    }

    private var state = State.connecting(pending: [])
    private weak var client: StreamConnection?
    private weak var upstream: StreamConnection?
    private var dialogue = RecordedDialogue()
    private var partialLine: [UInt8] = []
    /// The most of one client line kept for the dialogue, as a script's line framer takes by default
    /// (1 MiB): the rest of a longer line is relayed but not kept, so that a client sending without
    /// a line end is not held without end (a replay could not match such a line anyway).
    static let maximumLineLength = 1 << 20
    /// When the current reply's line was complete (or the connection opened, for the greeting).
    private var lineTime = MonotonicClock.now()
    private var replyStarted = false
    private let finished: (RecordedDialogue) -> Void
    private var reported = false
    /// FTP's part, when the upstream is an FTP server.
    private let ftp: FTPRelay?

    init(ftp: FTPRelay? = nil, finished: @escaping (RecordedDialogue) -> Void) {
        self.ftp = ftp
        self.finished = finished
    }

    func attach(client: StreamConnection) { self.client = client }

    /// Opens the upstream connection for `client`.
    func connect(to address: NetworkAddress, loop: EventLoop) {
        do {
            upstream = try StreamConnection.connect(to: address, loop: loop, driver: RelayUpstreamDriver(session: self))
        } catch {
            client?.log(.warning, "upstream \(address): \(error)")
            client?.finishAfterOutput(.failed("upstream \(address): \(error)"))
        }
    }

    // MARK: Pacing

    /// Whether the client's connection takes more of the upstream's bytes: less than
    /// ``StreamConnection/outputRoom`` wait to be written to it. While it does not, the upstream is
    /// not read, so that a client that stops reading costs the relay at most its buffers.
    var clientHasRoom: Bool { client?.hasOutputRoom ?? true }

    /// Whether the upstream's connection takes more of the client's bytes (while it is being made,
    /// whether less than ``StreamConnection/outputRoom`` bytes wait for it).
    var upstreamHasRoom: Bool {
        if case .connecting(let pending) = state { return pending.count < StreamConnection.outputRoom }
        return upstream?.hasOutputRoom ?? true
    }

    /// The client read enough of what waited: the upstream is read again.
    func clientDrained() { upstream?.resume() }

    /// The upstream read enough of what waited: the client is read again.
    func upstreamDrained() { client?.resume() }

    // MARK: From the drivers

    func upstreamOpened() {
        guard case .connecting(let pending) = state else { return }
        state = .relaying
        lineTime = MonotonicClock.now()
        if !pending.isEmpty { upstream?.sendNow(pending) }
        // A client held while its bytes waited for the connection is read again.
        if upstream?.hasOutputRoom ?? false { client?.resume() }
    }

    func fromClient(_ bytes: [UInt8]) {
        switch state {
        case .connecting(var pending):
            pending += bytes
            state = .connecting(pending: pending)
        case .relaying:
            upstream?.sendNow(bytes)
        case .ending:
            return
        }
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == 0x0A {
            partialLine += bytes[start..<index].prefix(max(0, Self.maximumLineLength - partialLine.count))
            if partialLine.last == 0x0D { partialLine.removeLast() }
            let line = String(decoding: partialLine, as: UTF8.self)
            ftp?.clientLine(line)
            client?.record(.input(InputUnit(line), response: nil))
            dialogue.exchanges.append(.init(line: line, reply: []))
            partialLine = []
            start = index + 1
            lineTime = MonotonicClock.now()
            replyStarted = false
        }
        partialLine += bytes[start...].prefix(max(0, Self.maximumLineLength - partialLine.count))
    }

    func fromUpstream(_ bytes: [UInt8]) {
        if !replyStarted {
            replyStarted = true
            let delay = Duration.nanoseconds(Int64(MonotonicClock.now() &- lineTime))
            if dialogue.exchanges.isEmpty { dialogue.greetingDelay = delay } else { dialogue.exchanges[dialogue.exchanges.count - 1].delay = delay }
        }
        if dialogue.exchanges.isEmpty {
            dialogue.greeting += bytes
        } else {
            dialogue.exchanges[dialogue.exchanges.count - 1].reply += bytes
        }
        let forwarded = ftp?.fromUpstream(bytes) ?? bytes
        if !forwarded.isEmpty { client?.sendNow(forwarded) }
    }

    func clientEnded() {
        state = .ending
        upstream?.finishAfterOutput(.finished("the client closed"))
        report()
    }

    func upstreamEnded(failed reason: String?) {
        if case .connecting = state {
            client?.log(.warning, "upstream not reached: \(reason ?? "closed")")
            state = .ending
            client?.finishAfterOutput(.failed("upstream not reached: \(reason ?? "closed")"))
            return
        }
        if case .relaying = state {
            if dialogue.exchanges.isEmpty { dialogue.closedAfterGreeting = true } else { dialogue.exchanges[dialogue.exchanges.count - 1].closedAfter = true }
        }
        state = .ending
        client?.finishAfterOutput(.finished("the upstream closed"))
        report()
    }

    private func report() {
        guard !reported else { return }
        reported = true
        ftp?.close()
        finished(dialogue)
    }
}
