/// One control connection: frames its input, asks the responder, carries out the actions in order.
///
/// A connection works through one input at a time: the next input unit goes to the responder only
/// when every action of the previous reply is done (a pause has ended, say). While it is paused,
/// closing or has much output waiting, it stops reading, so a fast or hostile peer cannot make it
/// buffer without bound.
final class Connection: LoopHandler {
    let id: Int
    private let socket: Socket
    private unowned let loop: EventLoop
    private var framer: LineFramer
    private var session: Session
    private var output = OutputBuffer()
    private var actions: [Action] = []
    private var nextAction = 0
    private var paused = false
    private var inputEnded = false
    private var pendingClose: CloseReason?
    private var closed = false
    private var interest: Interest = .read

    /// Output above this many bytes stops the reading of further input until it drains.
    private static let highWater = 1 << 20

    init(socket: Socket, loop: EventLoop) {
        self.id = loop.makeConnectionID()
        self.socket = socket
        self.loop = loop
        self.framer = LineFramer(maximumLength: loop.core.configuration.maximumLineLength)
        self.session = Session(connectionID: id)
    }

    private var core: ServerCore { loop.core }

    /// Registers the connection and runs the responder's greeting.
    func start() throws {
        socket.setNoDelay()
        try loop.add(self, fd: socket.fd, interest: .read)
        let peer = socket.peerAddress?.description ?? "unknown"
        core.record(.connected(peer: peer), connection: id)
        core.logger.log(.debug, "connected from \(peer)", connection: id)
        let (responder, context) = core.replyState(base: loop.context)
        actions = responder.connected(session: &session, context: context)
        drive()
    }

    func handle(_ readiness: Readiness) {
        if readiness.readable && (wantsInput || readiness.failed) {
            readInput()
        }
        if !closed {
            drive()
        }
        if !closed && readiness.failed {
            close(.peerVanished)
        }
    }

    private var wantsInput: Bool {
        !paused && !inputEnded && pendingClose == nil && nextAction >= actions.count && output.count < Self.highWater
    }

    private func readInput() {
        switch socket.read(into: loop.readBuffer) {
        case .bytes(let count):
            framer.append(UnsafeRawBufferPointer(rebasing: loop.readBuffer[..<count]))
        case .endOfFile:
            inputEnded = true
        case .wouldBlock:
            break
        case .failed(let error):
            close(error.isPeerGone ? .peerVanished : .failed(error.description))
        }
    }

    /// Carries out pending actions and inputs until something must be waited for.
    private func drive() {
        while !closed && !paused {
            if nextAction < actions.count {
                let action = actions[nextAction]
                nextAction += 1
                perform(action)
                continue
            }
            if pendingClose != nil || output.count >= Self.highWater { break }
            let unit: [UInt8]?
            do {
                unit = inputEnded ? try framer.finish() : try framer.next()
            } catch {
                core.logger.log(.warning, "\(error); closing", connection: id)
                pendingClose = .inputTooLong(limit: framer.maximumLength)
                break
            }
            guard let unit else {
                if inputEnded { pendingClose = .peerClosed }
                break
            }
            respond(to: Input(bytes: unit))
        }
        guard !closed else { return }
        flush()
        guard !closed else { return }
        if let reason = pendingClose, output.isEmpty {
            close(reason)
            return
        }
        updateInterest()
    }

    private func respond(to input: Input) {
        let (responder, context) = core.replyState(base: loop.context)
        if let reply = responder.respond(to: input, session: &session, context: context) {
            core.record(.input(input, response: reply.response), connection: id)
            core.logger.log(.trace, "<- \(input) [\(reply.response ?? "")]", connection: id)
            actions = reply.actions
            nextAction = 0
        } else {
            core.record(.unmatched(input), connection: id)
            core.logger.log(.warning, "unmatched input: \(input)", connection: id)
            actions = []
            nextAction = 0
            pendingClose = .unmatchedInput
        }
    }

    private func perform(_ action: Action) {
        switch action {
        case .send(let bytes):
            output.append(bytes)
            core.record(.output(bytes), connection: id)
        case .pause(let duration):
            core.record(.paused(duration), connection: id)
            flush()
            guard !closed else { return }
            paused = true
            updateInterest()
            loop.schedule(after: duration) { [weak self] in
                guard let self, !self.closed else { return }
                self.paused = false
                self.drive()
            }
        case .close:
            pendingClose = .script
            nextAction = actions.count
        case .useSet(let name):
            session.responseSet = name
            core.record(.switchedSet(name), connection: id)
            core.logger.log(.debug, "switched to set \"\(name)\"", connection: id)
        }
    }

    private func flush() {
        guard !output.isEmpty else { return }
        if let error = output.write(to: socket) {
            close(error.isPeerGone ? .peerVanished : .failed(error.description))
        }
    }

    private func updateInterest() {
        var wanted: Interest = []
        if wantsInput { wanted.insert(.read) }
        if !output.isEmpty { wanted.insert(.write) }
        guard wanted != interest else { return }
        do {
            try loop.selector.modify(socket.fd, interest: wanted)
            interest = wanted
        } catch {
            close(.failed("\(error)"))
        }
    }

    func close(_ reason: CloseReason) {
        guard !closed else { return }
        closed = true
        loop.remove(fd: socket.fd)
        socket.close()
        output.removeAll()
        core.record(.closed(reason), connection: id)
        core.logger.log(.debug, "closed (\(reason))", connection: id)
    }
}
