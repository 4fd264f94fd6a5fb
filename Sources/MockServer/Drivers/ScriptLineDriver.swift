import Foundation
@_spi(Framing) import MockServerCore
import MockServerFTP
import MockServerFileSystem
import MockServerHTTP
import MockServerWebDAV
import MockServerScript

/// A line protocol (or raw reads, as the original did) answered by a ``Responder``: an FTP session
/// with its data channel, or any other line protocol a script speaks.
///
/// It frames the input, asks the responder for each unit, and turns the reply's actions into the
/// connection's steps. FTP's data connections, file selection and its built-in replies (425, 426,
/// 504) live here, not in the connection.
final class ScriptLineDriver: StreamDriver {
    /// Where the session stands.
    private enum State {
        /// Waiting for or answering input.
        case ready
        /// A transfer runs on the data channel; the answer goes on when it ends.
        case transferring
    }

    private let core: ServerCore
    /// The substitution values that do not change while the server runs.
    private let base: SubstitutionContext
    private let pool: PassiveListenerPool
    private var framer: any InputFramer
    private var session: ResponderSession
    private var state = State.ready
    private var dataChannel: DataChannel?
    /// The file the current response selected, for `$size`, `«data»` and transfers.
    private var selectedFile: String?
    /// `«ftp»`'s working directory, pending rename and restart offset.
    private var ftpSession = FTPSessionState()

    init(core: ServerCore, base: SubstitutionContext, pool: PassiveListenerPool, framing: Framing) {
        self.core = core
        self.base = base
        self.pool = pool
        self.session = ResponderSession(connectionID: 0)
        let limit = core.configuration.maximumLineLength
        switch framing {
        case .raw: framer = RawFramer()
        case .lines, .requests: framer = LineFramer(maximumLength: limit)
        }
    }

    func opened(_ connection: StreamConnection) -> [StreamStep] {
        session = ResponderSession(connectionID: connection.id)
        let (responder, context) = core.replyState(base: base)
        return steps(for: responder.connected(session: &session, context: context), on: connection)
    }

    func received(_ bytes: UnsafeRawBufferPointer, on connection: StreamConnection) {
        framer.append(bytes)
    }

    func next(on connection: StreamConnection, inputEnded: Bool) -> DriverDecision {
        let unit: [UInt8]?
        do {
            unit = inputEnded ? try framer.finish() : try framer.next()
        } catch {
            connection.log(.warning, "\(error); closing")
            return .finish(error.closeReason)
        }
        guard let unit else { return inputEnded ? .finish(.peerClosed) : .needInput }
        let input = InputUnit(bytes: unit)
        selectedFile = nil
        let (responder, context) = core.replyState(base: base)
        guard let reply = responder.respond(to: input, session: &session, context: context) else {
            connection.record(.unmatched(input))
            connection.log(.warning, "unmatched input: \(input)")
            return .finish(.unmatchedInput)
        }
        connection.record(.input(input, response: reply.response))
        connection.log(.trace, "<- \(input) [\(reply.response ?? "")]")
        return .steps(steps(for: reply.actions, on: connection))
    }

    func closed(_ connection: StreamConnection, reason: CloseReason) {
        dataChannel?.close()
    }

    // MARK: Actions

    private func steps(for actions: [Action], on connection: StreamConnection) -> [StreamStep] {
        actions.map { step(for: $0, on: connection) }
    }

    private func step(for action: Action, on connection: StreamConnection) -> StreamStep {
        switch action {
        case .send(let bytes):
            return .send(bytes)
        case .pause(let duration):
            return .pause(duration)
        case .close:
            return .close(.script)
        case .fault(let fault):
            if let streamFault = fault.streamFault { return .fault(streamFault) }
            return .run { [unowned self, unowned connection] in self.perform(fault, on: connection) }
        default:
            return .run { [unowned self, unowned connection] in self.perform(action, on: connection) }
        }
    }

    private func perform(_ action: Action, on connection: StreamConnection) {
        switch action {
        case .send(let bytes):
            connection.send(bytes)
        case .render(let rendering):
            connection.send(rendering.render(currentContext()))
        case .sendData:
            connection.send(currentContext().data)
        case .pause, .close, .fault:
            break // steps of their own: see step(for:on:)
        case .useSet(let name):
            session.responseSet = name
            connection.record(.switchedSet(name))
            connection.log(.debug, "switched to set \"\(name)\"")
        case .selectFile(let rendering, let otherwise, let strict):
            let requested = rendering.text(currentContext())
            let files = core.files
            let stored = FileName.stored(requested, in: files)
            if let otherwise, strict || !files.isEmpty, stored == nil {
                connection.replaceRemainingSteps(with: steps(for: otherwise, on: connection))
            } else {
                selectedFile = stored ?? requested
            }
        case .openPassive:
            do {
                _ = try channel(connection).openPassive(host: base.address)
            } catch {
                connection.log(.error, "cannot open a passive listener: \(error)")
                endResponse(on: connection, replying: "425 Cannot open a passive connection.")
            }
        case .connectActive(let rendering, let otherwise):
            let argument = rendering.text(currentContext())
            if let target = FTPAddress.parse(argument), let peer = connection.peer,
               let address = try? SocketAddress(host: target.host, port: target.port), address.host == peer.host {
                channel(connection).useActive(address)
            } else {
                connection.log(.warning, "refused active-mode address \(argument) (only \(connection.peer?.host ?? "the peer") is allowed)")
                connection.replaceRemainingSteps(with: steps(for: otherwise ?? [.send(Array("504 Active mode is allowed only to the client's own address.\r\n".utf8))], on: connection))
            }
        case .transfer(let transfer):
            startTransfer(transfer, on: connection)
        case .saveBody(let rendering):
            core.saveBody(of: rendering.input, request: nil, as: rendering.text(currentContext()), connection: connection.id)
        case .continueRequest:
            connection.send(HTTPResponseSerializer.continueResponse)
        case .propfind(let input):
            connection.send(HTTPResponseSerializer.serialize(core.propfindResponse(for: HTTPRequest(parsing: input.bytes)), for: nil).bytes)
        case .ftp(let input):
            performFTP(input.text, on: connection)
        case .webdav(let input):
            let request = HTTPRequest(parsing: input.bytes)
            connection.send(HTTPResponseSerializer.serialize(core.webdavResponse(for: request, connection: connection.id), for: request).bytes)
        case .makeFolder(let rendering, let otherwise):
            if !core.makeFolder(rendering.text(currentContext())), let otherwise {
                connection.replaceRemainingSteps(with: steps(for: otherwise, on: connection))
            }
        case .copyFile(let source, let destination, let move, let otherwise):
            let context = currentContext()
            if !core.copyFile(source.text(context), to: destination.text(context), move: move), let otherwise {
                connection.replaceRemainingSteps(with: steps(for: otherwise, on: connection))
            }
        case .deleteFile(let rendering, let otherwise):
            if !core.deleteFile(rendering.text(currentContext())), let otherwise {
                connection.replaceRemainingSteps(with: steps(for: otherwise, on: connection))
            }
        }
    }

    /// The FTP data-channel faults; the others are the connection's.
    private func perform(_ fault: Fault, on connection: StreamConnection) {
        switch fault {
        case .refuseData:
            channel(connection).refuseNext()
            connection.log(.debug, "refusing the next data connection")
        case .delayData(let duration):
            channel(connection).delayNext(by: duration)
        case .reset, .halfClose, .hang, .truncate, .dribble:
            break
        }
    }

    /// Skips the rest of the current response after sending `reply`, a built-in FTP reply line.
    private func endResponse(on connection: StreamConnection, replying reply: String) {
        connection.send(Array((reply + "\r\n").utf8))
        connection.endSteps()
    }

    private func channel(_ connection: StreamConnection) -> DataChannel {
        if let dataChannel { return dataChannel }
        let channel = DataChannel(loop: connection.loop, pool: pool, connectionID: connection.id, peerHost: connection.peer?.host)
        dataChannel = channel
        return channel
    }

    /// The upload settle time: the script's `upload-settle`, or the server's configuration.
    private var uploadSettle: Duration? {
        core.responder.responseScript?.uploadSettle ?? core.configuration.uploadSettleTime
    }

    /// The substitution values now: the selected file, this connection's passive port.
    private func currentContext() -> SubstitutionContext {
        var context = core.substitutionContext(base: base, selectedFile: selectedFile)
        if let port = dataChannel?.passivePort { context.dataPort = port }
        return context
    }

    // MARK: «ftp»

    private func performFTP(_ line: String, on connection: StreamConnection) {
        switch core.ftpAnswer(to: line, session: &ftpSession) {
        case .reply(let text):
            connection.send(Array(text.utf8))
        case .download(let preliminary, let bytes, let final):
            guard dataChannel?.hasRoute == true else { return endResponse(on: connection, replying: "425 Use PASV, EPSV, PORT or EPRT first.") }
            connection.insertSteps([.send(Array(preliminary.utf8)),
                                    .run { [unowned self, unowned connection] in self.startJob(.send(bytes, partial: false), on: connection) },
                                    .send(Array(final.utf8))])
        case .upload(let preliminary, let path, let offset, let final):
            guard dataChannel?.hasRoute == true else { return endResponse(on: connection, replying: "425 Use PASV, EPSV, PORT or EPRT first.") }
            let connectionID = connection.id
            let job = DataSocket.Job.receive(settle: uploadSettle) { [core] bytes in
                core.storeFTPUpload(bytes, at: path, offset: offset, connection: connectionID)
            }
            connection.insertSteps([.send(Array(preliminary.utf8)),
                                    .run { [unowned self, unowned connection] in self.startJob(job, on: connection) },
                                    .send(Array(final.utf8))])
        }
    }

    // MARK: Transfers

    private func startTransfer(_ transfer: Transfer, on connection: StreamConnection) {
        guard dataChannel?.hasRoute == true else {
            endResponse(on: connection, replying: "425 Use PASV, EPSV, PORT or EPRT first.")
            return
        }
        let job: DataSocket.Job
        switch transfer {
        case .download: job = .send(currentContext().data, partial: false)
        case .downloadPartial: job = .send(currentContext().data, partial: true)
        case .upload:
            let name = selectedFile ?? ""
            let connectionID = connection.id
            job = .receive(settle: uploadSettle) { [core] bytes in
                core.recordUpload(Upload(name: name, data: Data(bytes), connection: connectionID))
            }
        case .list, .nameList:
            let content = core.content()
            if let listing = content.listing {
                job = .send(listing, partial: false)
            } else {
                let sizes = content.files.mapValues(\.count)
                job = .send(transfer == .list ? FTPListing.long(sizes) : FTPListing.names(sizes), partial: false)
            }
        }
        startJob(job, on: connection)
    }

    /// Runs `job` on the data channel, holding the control connection's steps until it ends.
    private func startJob(_ job: DataSocket.Job, on connection: StreamConnection) {
        guard let channel = dataChannel, channel.hasRoute else {
            endResponse(on: connection, replying: "425 Use PASV, EPSV, PORT or EPRT first.")
            return
        }
        connection.flushOutput()
        guard !connection.isClosed else { return }
        state = .transferring
        connection.hold()
        channel.start(job) { [weak self, weak connection] outcome in
            guard let self, let connection else { return }
            self.transferEnded(outcome, on: connection)
        }
    }

    private func transferEnded(_ outcome: DataSocket.Outcome, on connection: StreamConnection) {
        guard !connection.isClosed, case .transferring = state else { return }
        state = .ready
        switch outcome {
        case .sent, .aborted, .received, .settled:
            break
        case .refused:
            endResponse(on: connection, replying: "425 Can't open data connection.")
        case .failed(let reason):
            connection.log(.warning, "transfer failed: \(reason)")
            endResponse(on: connection, replying: "426 Connection closed; transfer aborted.")
        }
        connection.resume()
    }
}
