import Foundation
import MockServerCore
import MockServerFileSystem
import MockServerScript
import MockServerTLS

/// What one FTP control connection keeps across its replies: its data channel, `«ftp»`'s working
/// directory, and whether a transfer holds the connection. It lives in the connection's
/// ``MockServerScript/ScriptConnectionStorage`` and sends FTP's own replies (425, 426, 504).
///
/// The storage that holds it is shared with other threads, but this object is made, used and
/// closed only on the control connection's loop thread.
/// Kept: holds loop-thread state (FTP's commands run there, and so do the data channel's
/// completions) in a storage that other threads may hold.
final class FTPControlConnection: ScriptConnectionResource, @unchecked Sendable {
    /// Where the control connection stands.
    private enum State {
        /// Waiting for or answering input.
        case ready
        /// A transfer runs on the data channel; the answer goes on when it ends.
        case transferring
    }

    /// The control connection; the reference is dropped when it closes (the storage forgets this object).
    private let connection: StreamConnection
    private let storage: ScriptConnectionStorage
    private let channel: DataChannel
    private var state = State.ready
    private var session = FTPSessionState()

    private static let noRoute = "425 Use PASV, EPSV, PORT or EPRT first.\r\n"

    private init(connection: StreamConnection, storage: ScriptConnectionStorage) {
        self.connection = connection
        self.storage = storage
        let loop = connection.loop
        let pool = loop.attachment(ListenerPool.self) { ListenerPool(loop: loop) }
        channel = DataChannel(loop: loop, pool: pool, connectionID: connection.id, peerHost: connection.peer?.host)
    }

    /// The FTP state of `connection`, made on its first FTP command.
    static func of(_ connection: StreamConnection, reply: ScriptRun) -> FTPControlConnection {
        reply.storage.state(FTPControlConnection.self) { FTPControlConnection(connection: connection, storage: reply.storage) }
    }

    /// Whether the server has a TLS identity (for `FEAT`).
    private var offersTLS: Bool { connection.loop.existingAttachment(TLSContext.self) != nil }

    func connectionClosed() {
        channel.close()
    }

    /// The data channel's route changed: `$pasv`, `$epsv` and `$dataport` name its passive port now
    /// (or the server's, when it has none).
    private func routeChanged() {
        storage.protocolValues[FTPDataPort.self] = channel.passivePort.map(FTPDataPort.init)
    }

    // MARK: Commands

    func openPassive(host: String) -> ScriptRun.Outcome<LineWork> {
        do {
            _ = try channel.openPassive(host: host)
            routeChanged()
            return .continue([])
        } catch {
            connection.log(.error, "cannot open a passive listener: \(error)")
            routeChanged()
            return .instead([.send(Array("425 Cannot open a passive connection.\r\n".utf8))])
        }
    }

    func connectActive(_ argument: String, otherwise: () -> [ReplyStep<LineWork>]?) -> ScriptRun.Outcome<LineWork> {
        let address: NetworkAddress
        do {
            address = try FTPAddress.parse(argument)
        } catch {
            // A malformed argument is the client's syntax error, whatever the script's `otherwise`.
            connection.log(.warning, "refused active-mode argument: \(error.reason)")
            return .instead([.send(Array("501 Syntax error in parameters: \(error.reason).\r\n".utf8))])
        }
        if let peer = connection.peer, address.host == peer.host {
            channel.useActive(address)
            routeChanged()
            return .continue([])
        }
        connection.log(.warning, "refused active-mode address \(argument) (only \(connection.peer?.host ?? "the peer") is allowed)")
        return .instead(otherwise() ?? [.send(Array("504 Active mode is allowed only to the client's own address.\r\n".utf8))])
    }

    /// FTPS's `PROT`: `P` makes later data connections TLS, `C` clear; anything else (or `P`
    /// without a TLS identity) runs `otherwise` instead of the rest, or goes on with a warning.
    func protect(_ level: String, otherwise: () -> [ReplyStep<LineWork>]?) -> ScriptRun.Outcome<LineWork> {
        switch level.trimmingSpaces().uppercased() {
        case "C":
            channel.protection = nil
            return .continue([])
        case "P":
            if let context = connection.loop.existingAttachment(TLSContext.self) {
                let required = context.configuration.requireSessionReuse ? connection.tlsSessionTag : nil
                channel.protection = DataProtection(context: context, requiredSessionTag: required)
                return .continue([])
            }
            connection.log(.warning, "PROT P: the server has no TLS identity; data connections stay clear")
        default:
            connection.log(.warning, "PROT \(level): only C and P are offered")
        }
        if let steps = otherwise() { return .instead(steps) }
        return .continue([])
    }

    func refuseNextDataConnection() -> ScriptRun.Outcome<LineWork> {
        channel.refuseNext()
        routeChanged()
        connection.log(.debug, "refusing the next data connection")
        return .continue([])
    }

    func delayNextTransfer(by duration: Duration) -> ScriptRun.Outcome<LineWork> {
        channel.delayNext(by: duration)
        return .continue([])
    }

    func transfer(_ transfer: FTPTransfer, reply: ScriptRun) -> ScriptRun.Outcome<LineWork> {
        guard channel.hasRoute else { return .instead([.send(Array(Self.noRoute.utf8))]) }
        let server = reply.server
        let job: DataTransfer.Job
        switch transfer {
        case .download: job = .send(reply.values.data, partial: false)
        case .downloadPartial: job = .send(reply.values.data, partial: true)
        case .upload:
            let name = reply.selectedFile ?? ""
            let connectionID = connection.id
            let settings = FTPSettings.effective(in: server.content().settings)
            job = .receive(settle: settings.uploadSettle, limit: settings.maximumUpload ?? FTPSettings.defaultMaximumUpload) { bytes in
                server.recordUpload(name: name, bytes: bytes, connection: connectionID)
            }
        case .list, .nameList:
            let content = server.content()
            if let listing = FTPSettings.effective(in: content.settings).listing {
                job = .send(listing, partial: false)
            } else {
                let sizes = content.files.mapValues(\.count)
                job = .send(transfer == .list ? FTPListing.long(sizes) : FTPListing.names(sizes), partial: false)
            }
        }
        start(job)
        return .continue([])
    }

    /// `«ftp»`: the answer of an FTP server over the server's files to the command `line`.
    func answer(_ line: String, reply: ScriptRun) -> ScriptRun.Outcome<LineWork> {
        let server = reply.server
        let values = reply.values
        let now = values.now()
        let content = server.content()
        let settings = FTPSettings.effective(in: content.settings)
        let answer = server.withFileStore { store in
            var system = FTPFileSystem(store: store, data: content.data, listing: settings.listing, now: now)
            system.offersTLS = offersTLS
            let answer = system.answer(line, session: &session)
            // The whole store goes back: its tree stays made unless the command changed the files.
            store = system.store
            return answer
        }
        switch answer {
        case .reply(let text):
            return .continue([.send(Array(text.utf8))])
        case .download(let preliminary, let bytes, let final):
            guard channel.hasRoute else { return .instead([.send(Array(Self.noRoute.utf8))]) }
            return .continue([.send(Array(preliminary.utf8)), .then { [self] in start(.send(bytes, partial: false)); return [] }, .send(Array(final.utf8))])
        case .upload(let preliminary, let path, let offset, let final):
            guard channel.hasRoute else { return .instead([.send(Array(Self.noRoute.utf8))]) }
            let connectionID = connection.id
            let store: @Sendable ([UInt8]) -> Void = { bytes in
                let now = values.now()
                server.withFileStore { store in
                    var system = FTPFileSystem(store: store, data: [], now: now)
                    system.store(bytes, at: path, offset: offset)
                    store = system.store
                }
                // Named as `--files` names files: relative to the root (`up.bin`, `sub/up.bin`).
                server.recordUpload(name: String(path.drop { $0 == "/" }), bytes: bytes, connection: connectionID)
            }
            let settle = settings.uploadSettle
            let limit = settings.maximumUpload ?? FTPSettings.defaultMaximumUpload
            return .continue([.send(Array(preliminary.utf8)), .then { [self] in start(.receive(settle: settle, limit: limit, complete: store)); return [] },
                              .send(Array(final.utf8))])
        }
    }

    // MARK: Transfers

    /// Runs `job` on the data channel, holding the control connection's steps until it ends.
    private func start(_ job: DataTransfer.Job) {
        guard channel.hasRoute else { return endResponse(replying: Self.noRoute) }
        connection.flushOutput()
        guard !connection.isClosed else { return }
        state = .transferring
        connection.hold()
        channel.start(job) { [weak self] outcome in
            self?.transferEnded(outcome)
        }
    }

    private func transferEnded(_ outcome: DataTransfer.Outcome) {
        guard !connection.isClosed, case .transferring = state else { return }
        state = .ready
        switch outcome {
        case .sent, .aborted, .received, .settled:
            break
        case .refused:
            endResponse(replying: "425 Can't open data connection.\r\n")
        case .failed(let reason) where reason.contains(TLSTransport.sessionReuseRefusal):
            connection.log(.warning, "transfer refused: \(TLSTransport.sessionReuseRefusal)")
            endResponse(replying: "522 SSL connection failed: session reuse required.\r\n")
        case .failed(let reason):
            connection.log(.warning, "transfer failed: \(reason)")
            endResponse(replying: "426 Connection closed; transfer aborted.\r\n")
        case .tooLarge(let limit):
            // RFC 959's 552: exceeded storage allocation.
            endResponse(replying: "552 Upload aborted: longer than \(limit) bytes, the most this server keeps (maximumUploadSize, --max-upload).\r\n")
        }
        connection.resume()
    }

    /// Skips the rest of the current response after sending `reply`, one of FTP's own reply lines.
    private func endResponse(replying reply: String) {
        connection.send(Array(reply.utf8))
        connection.endSteps()
    }
}
