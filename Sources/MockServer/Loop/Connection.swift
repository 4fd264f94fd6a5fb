import Foundation

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
    private var framer: any InputFramer
    private var session: Session
    private var output = OutputBuffer()
    private var actions: [Action] = []
    private var nextAction = 0
    private var paused = false
    private var transferring = false
    private var selectedFile: String?
    private var hanging = false
    /// No more output is accepted (`«half-close»`); the socket's sending side is shut down once
    /// what was already queued has been written (`sendingShutDown`).
    private var writeShut = false
    private var sendingShutDown = false
    private var truncateNext: Int?
    private var dribbleRate: Int?
    private var dataChannel: DataChannel?
    private let peer: SocketAddress?
    private var inputEnded = false
    private var pendingClose: CloseReason?
    private var closed = false
    private var interest: Interest = .read
    /// A `"head": true` response is answering a request head and has not sent `«continue»`.
    private var answeringHead = false
    /// The script answered a request head without letting its body come: whatever the client still
    /// sends is read and dropped until it closes.
    private var discardingInput = false

    /// Output above this many bytes stops the reading of further input until it drains.
    private static let highWater = 1 << 20

    init(socket: Socket, loop: EventLoop) {
        self.id = loop.makeConnectionID()
        self.socket = socket
        self.loop = loop
        self.framer = loop.core.responder.framing.makeFramer(maximumLineLength: loop.core.configuration.maximumLineLength)
        self.session = Session(connectionID: id)
        self.peer = socket.peerAddress
    }

    private var core: ServerCore { loop.core }

    /// Registers the connection and runs the responder's greeting.
    func start() throws {
        socket.setNoDelay()
        try loop.add(self, fd: socket.fd, interest: .read)
        let peerText = peer?.description ?? "unknown"
        core.record(.connected(peer: peerText), connection: id)
        core.logger.log(.debug, "connected from \(peerText)", connection: id)
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
        !paused && !transferring && !hanging && !inputEnded && pendingClose == nil && nextAction >= actions.count && output.count < Self.highWater
    }

    private func readInput() {
        switch socket.read(into: loop.readBuffer) {
        case .bytes(let count):
            guard !discardingInput else { return }
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
        while !closed && !paused && !transferring && !hanging {
            if nextAction < actions.count {
                let action = actions[nextAction]
                nextAction += 1
                perform(action)
                continue
            }
            if answeringHead {
                endExchangeAfterHeadAnswer()
                continue
            }
            if discardingInput {
                if inputEnded { pendingClose = .script }
                break
            }
            if pendingClose != nil || output.count >= Self.highWater { break }
            let unit: [UInt8]?
            do {
                unit = inputEnded ? try framer.finish() : try framer.next()
            } catch {
                core.logger.log(.warning, "\(error); closing", connection: id)
                pendingClose = error.closeReason
                break
            }
            guard let unit else {
                if inputEnded {
                    pendingClose = .peerClosed
                } else if let head = framer.takeHeadAwaitingContinue() {
                    answer(head: Input(bytes: head))
                    continue
                }
                break
            }
            respond(to: Input(bytes: unit))
        }
        guard !closed else { return }
        flush()
        guard !closed else { return }
        if writeShut && !sendingShutDown && output.isEmpty {
            socket.shutdownWrite()
            sendingShutDown = true
        }
        if let reason = pendingClose, output.isEmpty {
            close(reason)
            return
        }
        updateInterest()
    }

    private func respond(to input: Input) {
        if let reply = reply(to: input, using: { $0.respond(to: input, session: &$1, context: $2) }) {
            begin(reply, to: input)
        } else {
            core.record(.unmatched(input), connection: id)
            core.logger.log(.warning, "unmatched input: \(input)", connection: id)
            actions = []
            nextAction = 0
            pendingClose = .unmatchedInput
        }
    }

    /// A client waits with a request head for `100 Continue`: the script's `"head": true` responses
    /// may answer it; otherwise it gets `100 Continue` and the body comes.
    private func answer(head: Input) {
        guard let reply = reply(to: head, using: { $0.respond(toHead: head, session: &$1, context: $2) }) else {
            send(Self.continueResponse)
            return
        }
        begin(reply, to: head)
        answeringHead = true
    }

    /// Asks the responder (through `ask`) for the reply to `input`, starting a new response: a file
    /// selection, a truncation and a dribble last for the response that made them.
    private func reply(to input: Input, using ask: (any Responder, inout Session, SubstitutionContext) -> Reply?) -> Reply? {
        selectedFile = nil
        truncateNext = nil
        dribbleRate = nil
        let (responder, context) = core.replyState(base: loop.context)
        return ask(responder, &session, context)
    }

    /// Records `input` as answered by `reply` and makes its actions the ones to carry out.
    private func begin(_ reply: Reply, to input: Input) {
        core.record(.input(input, response: reply.response), connection: id)
        core.logger.log(.trace, "<- \(input) [\(reply.response ?? "")]", connection: id)
        actions = reply.actions
        nextAction = 0
    }

    /// The script answered a request head without `«continue»`: the client will not send the body
    /// (or sends it anyway), so the request cannot be followed by another on this connection. Stop
    /// sending once the answer is out, drop the rest of the input, close when the client does.
    private func endExchangeAfterHeadAnswer() {
        answeringHead = false
        discardingInput = true
        writeShut = true
        core.logger.log(.debug, "request head answered without «continue»: discarding input until the client closes", connection: id)
    }

    private static let continueResponse = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    private func perform(_ action: Action) {
        switch action {
        case .send(let bytes):
            send(bytes)
        case .render(let rendering):
            send(rendering.render(currentContext()))
        case .sendData:
            send(currentContext().data)
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
            endResponse()
        case .useSet(let name):
            session.responseSet = name
            core.record(.switchedSet(name), connection: id)
            core.logger.log(.debug, "switched to set \"\(name)\"", connection: id)
        case .selectFile(let rendering, let otherwise, let strict):
            let requested = rendering.text(currentContext())
            let files = core.files
            let stored = FileName.stored(requested, in: files)
            if let otherwise, strict || !files.isEmpty, stored == nil {
                replaceRemainingActions(with: otherwise)
            } else {
                selectedFile = stored ?? requested
            }
        case .openPassive:
            do {
                _ = try channel().openPassive(host: loop.context.address)
            } catch {
                core.logger.log(.error, "cannot open a passive listener: \(error)", connection: id)
                endResponse(replying: "425 Cannot open a passive connection.")
            }
        case .connectActive(let rendering, let otherwise):
            let argument = rendering.text(currentContext())
            if let target = FTPAddress.parse(argument), let peer,
               let address = try? SocketAddress(host: target.host, port: target.port), address.host == peer.host {
                channel().useActive(address)
            } else {
                core.logger.log(.warning, "refused active-mode address \(argument) (only \(peer?.host ?? "the peer") is allowed)", connection: id)
                replaceRemainingActions(with: otherwise ?? [.send(Array("504 Active mode is allowed only to the client's own address.\r\n".utf8))])
            }
        case .transfer(let transfer):
            startTransfer(transfer)
        case .fault(let fault):
            perform(fault)
        case .saveBody(let rendering):
            let name = rendering.text(currentContext())
            let body = HTTPRequestParts(rendering.input.bytes)?.body ?? rendering.input.bytes
            core.storeFile(name, body)
            core.recordUpload(Upload(name: name, data: Data(body), connection: id))
        case .continueRequest:
            send(Self.continueResponse)
            answeringHead = false
        case .propfind(let input):
            let request = HTTPRequestParts(input.bytes)
            let target = request.map { String(decoding: $0.path, as: UTF8.self) } ?? "/"
            let depth = request?.header("depth").map { String(decoding: $0, as: UTF8.self) }
            send(WebDAVTree(files: core.files).propfindResponse(target: target, depthHeader: depth))
        case .makeFolder(let rendering, let otherwise):
            let path = WebDAVTree.path(ofTarget: rendering.text(currentContext()))
            let made = core.updateFiles { WebDAVTree(files: $0).makingFolder(path) }
            if !made, let otherwise { replaceRemainingActions(with: otherwise) }
        case .copyFile(let source, let destination, let move, let otherwise):
            let from = WebDAVTree.path(ofTarget: source.text(currentContext()))
            let to = WebDAVTree.path(ofTarget: destination.text(currentContext()))
            let copied = core.updateFiles { WebDAVTree(files: $0).copying(from, to: to, removingSource: move) }
            if !copied, let otherwise { replaceRemainingActions(with: otherwise) }
        case .deleteFile(let rendering, let otherwise):
            let path = WebDAVTree.path(ofTarget: rendering.text(currentContext()))
            let deleted = core.updateFiles { WebDAVTree(files: $0).deleting(path) }
            if !deleted, let otherwise { replaceRemainingActions(with: otherwise) }
        }
    }

    private func send(_ bytes: [UInt8]) {
        guard !writeShut else {
            core.logger.log(.debug, "not sent after «half-close»: \(bytes.count) bytes", connection: id)
            return
        }
        if let limit = truncateNext {
            truncateNext = nil
            let kept = Array(bytes.prefix(limit))
            output.append(kept)
            core.record(.output(kept), connection: id)
            pendingClose = .script
            endResponse()
            return
        }
        if let rate = dribbleRate, bytes.count > 1 {
            // Expand into small sends with pauses between them, in place, so that order is kept.
            let chunk = max(1, rate / 100)
            let gap = Duration.nanoseconds(Int64(chunk) * 1_000_000_000 / Int64(rate))
            var steps: [Action] = []
            var offset = 0
            while offset < bytes.count {
                if offset > 0 { steps.append(.pause(gap)) }
                steps.append(.send(Array(bytes[offset..<min(offset + chunk, bytes.count)])))
                offset += chunk
            }
            let first = steps.removeFirst()
            actions.insert(contentsOf: steps, at: nextAction)
            if case .send(let head) = first {
                output.append(head)
                core.record(.output(head), connection: id)
            }
            return
        }
        output.append(bytes)
        core.record(.output(bytes), connection: id)
    }

    private func perform(_ fault: Fault) {
        switch fault {
        case .reset:
            flush()
            guard !closed else { return }
            close(.resetByScript, reset: true)
        case .halfClose:
            writeShut = true
        case .hang:
            flush()
            hanging = true
            endResponse()
            core.logger.log(.debug, "hanging: no further answers", connection: id)
        case .truncate(let bytes):
            truncateNext = bytes
        case .dribble(let rate):
            dribbleRate = rate
        case .refuseData:
            channel().refuseNext()
            core.logger.log(.debug, "refusing the next data connection", connection: id)
        case .delayData(let duration):
            channel().delayNext(by: duration)
        }
    }

    /// Skips the rest of the current response, after sending `reply` (a built-in FTP reply line,
    /// CRLF added) when given.
    private func endResponse(replying reply: String? = nil) {
        if let reply { send(Array((reply + "\r\n").utf8)) }
        nextAction = actions.count
    }

    private func replaceRemainingActions(with replacement: [Action]) {
        actions = replacement
        nextAction = 0
    }

    private func channel() -> DataChannel {
        if let dataChannel { return dataChannel }
        let channel = DataChannel(loop: loop, connectionID: id, peerHost: peer?.host)
        dataChannel = channel
        return channel
    }

    /// The substitution values now: the selected file, this connection's passive port.
    private func currentContext() -> SubstitutionContext {
        var context = loop.context
        let content = core.content()
        if let name = selectedFile {
            context.fileName = name
            context.data = content.files[name] ?? content.data
        } else {
            context.data = content.data
        }
        if let port = dataChannel?.passivePort { context.dataPort = port }
        return context
    }

    private func startTransfer(_ transfer: Transfer) {
        guard let channel = dataChannel, channel.hasRoute else {
            endResponse(replying: "425 Use PASV, EPSV, PORT or EPRT first.")
            return
        }
        let job: DataSocket.Job
        switch transfer {
        case .download: job = .send(currentContext().data, partial: false)
        case .downloadPartial: job = .send(currentContext().data, partial: true)
        case .upload: job = .receive
        case .list, .nameList:
            let content = core.content()
            if let listing = content.listing {
                job = .send(listing, partial: false)
            } else {
                let sizes = content.files.mapValues(\.count)
                job = .send(transfer == .list ? FTPListing.long(sizes) : FTPListing.names(sizes), partial: false)
            }
        }
        flush()
        guard !closed else { return }
        transferring = true
        updateInterest()
        channel.start(job) { [weak self] outcome in
            self?.transferEnded(outcome)
        }
    }

    private func transferEnded(_ outcome: DataSocket.Outcome) {
        guard !closed else { return }
        transferring = false
        switch outcome {
        case .sent, .aborted:
            break
        case .refused:
            endResponse(replying: "425 Can't open data connection.")
        case .received(let bytes):
            core.recordUpload(Upload(name: selectedFile ?? "", data: Data(bytes), connection: id))
        case .failed(let reason):
            core.logger.log(.warning, "transfer failed: \(reason)", connection: id)
            endResponse(replying: "426 Connection closed; transfer aborted.")
        }
        drive()
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
        close(reason, reset: false)
    }

    private func close(_ reason: CloseReason, reset: Bool) {
        guard !closed else { return }
        closed = true
        dataChannel?.close()
        loop.remove(fd: socket.fd)
        if reset { socket.reset() } else { socket.close() }
        output.removeAll()
        core.record(.closed(reason), connection: id)
        core.logger.log(.debug, "closed (\(reason))", connection: id)
    }
}
