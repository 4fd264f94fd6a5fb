import Foundation
@_spi(HotPath) import MockServerCore

/// A recording proxy for any line protocol (SMTP, POP3, IMAP, a custom one): each client
/// connection is relayed to the upstream byte for byte, and the dialogues are written as a response
/// script that answers the same lines the same way (see `Docs/Recording.md` for the rules).
///
/// ```swift
/// let recorder = try LineRecorder(upstream: URL(string: "tcp://127.0.0.1:2525")!,
///                                 script: URL(fileURLWithPath: "smtp.json"))
/// try recorder.start()
/// // … run the client against recorder.port …
/// try recorder.stop()
/// let replay = MockServer(responder: try PatternResponder(script: ResponseScript(contentsOf: URL(fileURLWithPath: "smtp.json"))))
/// ```
package final class LineRecorder: Sendable {
    /// The upstream's address.
    package let upstream: NetworkAddress
    /// Where the script is written.
    package let script: URL
    /// What the relayed connections did, both sides.
    package let transcript: Transcript
    private let source: String
    private let builder: DialogueScript
    private let listen: NetworkAddress
    private let environment: ServerEnvironment
    private let state = Locked(State())
    /// For an FTP upstream: where transfers are kept.
    private let files: URL?

    private struct State {
        var server: LoopServer?
        var dialogues: [RecordedDialogue] = []
    }

    /// A recorder relaying to `upstream` (`tcp://HOST:PORT`, or `ftp://HOST:PORT`; HOST may be a
    /// name) and writing `script`.
    ///
    /// For `ftp://`, the upstream's passive replies are rewritten so that data connections pass
    /// through the recorder; what is downloaded and uploaded is kept under `files` at the client's
    /// paths, and the script answers the file commands from the shared files with the responses of
    /// `standardFTPScript` (the bundled `ftp.json`'s bytes), after the recorded login and other lines.
    /// Plain FTP only: with `AUTH TLS` the passive replies cannot be read.
    ///
    /// - Parameters:
    ///   - keepsTiming: whether the upstream's time to answer is kept as a pause before each reply.
    ///   - host: the numeric address to listen on.
    ///   - port: the port to listen on (0: the system picks one).
    ///   - transcriptObserver: sees each transcript entry as it is recorded (`--verbose`, say).
    ///   - files: for `ftp://`, the folder transfers are kept in (made when missing).
    ///   - standardFTPScript: for `ftp://`, the script whose default set answers the file commands.
    ///   - mask: the headers whose `Name: value` lines are written masked (a client's line as a
    ///     pattern that matches any value): ``HTTPRecorder.Mask/standard`` by default.
    /// - Throws: ``RecordingError/badUpstream(_:reason:)``.
    package init(upstream: URL, script: URL, keepsTiming: Bool = false, host: String = "127.0.0.1", port: UInt16 = 0,
                transcriptObserver: (@Sendable (Transcript.Entry) -> Void)? = nil, files: URL? = nil,
                standardFTPScript: [UInt8]? = nil, mask: HTTPRecorder.Mask = .standard) throws(RecordingError) {
        let text = upstream.absoluteString
        let scheme = upstream.scheme?.lowercased()
        if scheme == "ftp" {
            guard files != nil, let standardFTPScript, DialogueScript.defaultSet(of: standardFTPScript) != nil else {
                throw .badUpstream(text, reason: "an ftp:// upstream needs a files folder and the standard FTP script")
            }
            guard !host.contains(":") else { throw .badUpstream(text, reason: "FTP recording listens on IPv4 (PASV names an IPv4 address)") }
        }
        self.files = scheme == "ftp" ? files : nil
        guard scheme == "tcp" || scheme == "ftp", let upstreamHost = upstream.host, !upstreamHost.isEmpty, let upstreamPort = upstream.port,
              (1...65535).contains(upstreamPort) else {
            throw .badUpstream(text, reason: "a line upstream is tcp://HOST:PORT (or ftp://HOST:PORT)")
        }
        do {
            self.upstream = try NetworkAddress.resolving(host: upstreamHost, port: UInt16(upstreamPort))
            listen = try NetworkAddress(host: host, port: port)
        } catch {
            throw .badUpstream(text, reason: "\(error)")
        }
        self.script = script
        source = text
        var builder = DialogueScript(keepsTiming: keepsTiming, source: text)
        builder.mask = mask
        if scheme == "ftp", let standardFTPScript { builder.standardFTP = DialogueScript.defaultSet(of: standardFTPScript) }
        self.builder = builder
        if let files = self.files {
            do {
                try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
            } catch {
                throw .cannotWrite(path: files.path, reason: (error as NSError).localizedDescription)
            }
        }
        transcript = Transcript(observer: transcriptObserver)
        environment = ServerEnvironment(transcript: transcript, logger: .disabled)
    }

    /// Starts listening.
    ///
    /// - Throws: ``SocketCallError`` when the address cannot be bound.
    package func start() throws {
        let upstream = upstream
        let files = files
        let listenHost = listen.host
        let (server, _) = try LoopServer.start(binding: [listen], environment: environment, prepare: { _ in () }) { [self] loop, sockets, _ in
            [Listener(socket: sockets[0], loop: loop) { [unowned loop] client in
                let ftp = files.map { FTPRelay(files: $0, listenHost: listenHost, upstream: upstream, loop: loop) }
                let session = RelaySession(ftp: ftp) { [self] dialogue in self.finished(dialogue) }
                let connection = StreamConnection(socket: client, loop: loop, driver: RelayClientDriver(session: session))
                session.attach(client: connection)
                try connection.start()
                session.connect(to: upstream, loop: loop)
            }]
        }
        state.withLock { $0.server = server }
    }

    /// The port listened on (0 before ``start()``).
    package var port: UInt16 { state.withLock { $0.server?.addresses.first?.port ?? 0 } }

    /// How many connections ended and were added to the script.
    package var dialogueCount: Int { state.withLock { $0.dialogues.count } }

    /// Stops listening, closes the connections (their dialogues kept) and writes the script.
    ///
    /// - Throws: ``RecordingError/cannotWrite(path:reason:)``.
    package func stop() throws(RecordingError) {
        let server = state.withLock { state -> LoopServer? in
            defer { state.server = nil }
            return state.server
        }
        server?.stop()
        try write()
    }

    private func finished(_ dialogue: RecordedDialogue) {
        state.withLock { $0.dialogues.append(dialogue) }
        do {
            try write()
        } catch {
            environment.logger.log(.error, "\(error)")
        }
    }

    /// Writes the script for every dialogue so far.
    ///
    /// - Throws: ``RecordingError/cannotWrite(path:reason:)``.
    package func write() throws(RecordingError) {
        let dialogues = state.withLock { $0.dialogues }
        let text = builder.script(for: dialogues)
        do {
            try Data(text.utf8).write(to: script, options: .atomic)
        } catch {
            throw .cannotWrite(path: script.path, reason: (error as NSError).localizedDescription)
        }
    }
}
