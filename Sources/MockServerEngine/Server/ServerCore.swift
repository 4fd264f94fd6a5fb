import Foundation
@_spi(HotPath) import MockServerCore
import MockServerFileSystem
import MockServerScript

/// The state a running server shares between its event loop and the threads that use its API.
final class ServerCore: ScriptServer {
    private struct Shared {
        var responder: any ScriptResponder {
            didSet {
                variables = Self.variables(of: responder, standard: standard)
                serverResponder = ServerResponder(responder)
            }
        }
        /// ``responder`` as drivers read it for each reply, made when it is set.
        var serverResponder: ServerResponder
        /// The substitutions the server's vocabulary adds, which every script may use.
        let standard: [String: ScriptProtocolVariable]
        /// The substitutions protocols add: the server's vocabulary's, and those of the script's own vocabulary.
        var variables: [String: ScriptProtocolVariable]
        var data: [UInt8]
        var store: FileStore
        /// What the server's protocols keep on a running server, each in its own type (a listing
        /// set by hand): read with the configuration's settings in ``content()``.
        var protocolState = ScriptSettings()
        var uploads: [MockServer.Upload] = []

        init(responder: any ScriptResponder, data: [UInt8], store: FileStore, standard: [String: ScriptProtocolVariable]) {
            self.responder = responder
            self.serverResponder = ServerResponder(responder)
            self.standard = standard
            self.variables = Self.variables(of: responder, standard: standard)
            self.data = data
            self.store = store
        }

        private static func variables(of responder: any ScriptResponder, standard: [String: ScriptProtocolVariable]) -> [String: ScriptProtocolVariable] {
            guard let own = responder.responseScript?.variables, !own.isEmpty else { return standard }
            return own.merging(standard) { script, _ in script }
        }
    }

    let configuration: MockServer.Configuration
    /// The transcript, the logger and the connection numbers every connection reports to.
    let environment: ServerEnvironment
    /// Read on every reply (``replyState(base:)``), under a lock inlined and specialised here.
    private let shared: Locked<Shared>

    init(responder: any ScriptResponder, data: [UInt8], configuration: MockServer.Configuration,
         vocabulary: ScriptVocabulary) {
        self.configuration = configuration
        self.environment = ServerEnvironment(transcript: Transcript(limit: configuration.transcriptLimit, byteLimit: configuration.transcriptByteLimit, observer: configuration.transcriptObserver),
                                             logger: configuration.logger)
        // The configuration's conditions win over those of the script the server starts with.
        environment.conditions.withLock { $0 = configuration.conditions ?? responder.responseScript?.conditions }
        self.shared = Locked(Shared(responder: responder, data: data, store: FileStore(times: FileTimes(origin: configuration.clock())),
                                    standard: vocabulary.variables))
    }

    var transcript: Transcript { environment.transcript }

    var logger: MockServerLogger { configuration.logger }


    /// The longest line a line connection accepts.
    var maximumLineLength: Int { configuration.maximumLineLength }

    /// Control and data connections currently open.
    var openConnections: Locked<Int> { environment.openConnections }

    var responder: any ScriptResponder {
        get { shared.withLock { $0.responder } }
        set { shared.withLock { $0.responder = newValue } }
    }

    var data: [UInt8] {
        get { shared.withLock { $0.data } }
        set { shared.withLock { $0.data = newValue } }
    }

    var files: [String: [UInt8]] {
        get { shared.withLock { $0.store.files } }
        set { shared.withLock { $0.store.files = newValue } }
    }

    /// Stores one file, atomically with respect to ``files`` being set from another thread. A request
    /// path (`/a.txt`) replaces a file stored under the same name without its leading `/` (as
    /// `mockserver --files DIR` names them), so that one path never names two files.
    func storeFile(_ name: String, _ bytes: [UInt8]) {
        shared.withLock { shared in
            if let twin = FileName.stored(name, in: shared.store.files), twin != name { shared.store.files[twin] = nil }
            shared.store.files[name] = bytes
        }
    }

    /// Runs `body` on the files, their times and the protocols' state, atomically.
    func withFileStore<Result>(_ body: (inout FileStore) -> Result) -> Result {
        shared.withLock { shared in body(&shared.store) }
    }

    /// Runs `body` on the protocols' state, atomically.
    func withProtocolState<Result>(_ body: (inout ScriptSettings) -> Result) -> Result {
        shared.withLock { shared in body(&shared.protocolState) }
    }

    var uploads: [MockServer.Upload] { shared.withLock { $0.uploads } }

    /// Forgets every upload.
    func removeUploads() {
        shared.withLock { $0.uploads.removeAll() }
    }

    /// The data, the files and the protocols' settings, read together: the script's, over the
    /// protocols' state on the server, over the configuration's; each protocol reads its own types.
    func content() -> (data: [UInt8], files: [String: [UInt8]], settings: ScriptSettings) {
        shared.withLock { shared in
            var settings = configuration.settings
            if !shared.protocolState.isEmpty { settings = settings.merging(shared.protocolState) }
            if let script = shared.responder.responseScript?.settings, !script.isEmpty { settings = settings.merging(script) }
            return (shared.data, shared.store.files, settings)
        }
    }

    /// Keeps an upload and records it in the transcript.
    func recordUpload(name: String, bytes: [UInt8], connection: Int) {
        recordUpload(MockServer.Upload(name: name, data: Data(bytes), connection: connection))
    }

    /// Keeps an upload and records it in the transcript.
    func recordUpload(_ upload: MockServer.Upload) {
        shared.withLock { $0.uploads.append(upload) }
        configuration.uploadHandler?(upload)
        record(.uploaded(name: upload.name, byteCount: upload.data.count), connection: upload.connection)
    }

    /// The responder and the substitution context for one reply, read together under one lock.
    func replyState(base: SubstitutionContext) -> (any ScriptResponder, SubstitutionContext) {
        var context = base
        let responder = replyState(updating: &context)
        return (responder, context)
    }

    /// The responder for one reply, and the data and the protocols' variables put into `context`,
    /// read together under one lock.
    @inline(__always)
    func replyState(updating context: inout SubstitutionContext) -> any ScriptResponder {
        readReplyState(updating: &context) { $0.responder }
    }

    /// ``replyState(updating:)`` with the responder as it was prepared when set.
    @inline(__always)
    func serverResponder(updating context: inout SubstitutionContext) -> ServerResponder {
        readReplyState(updating: &context) { $0.serverResponder }
    }

    /// The data and the protocols' variables put into `context`, and `responder` of the same state,
    /// read together under one lock.
    @inline(__always)
    private func readReplyState<Responder>(updating context: inout SubstitutionContext, _ responder: (Shared) -> Responder) -> Responder {
        shared.withLock { shared in
            context.data = shared.data
            context.protocolVariables = shared.variables
            return responder(shared)
        }
    }

    /// The substitution context for one step: `base` with the selected file's bytes (or the data).
    /// Only those are read, under the lock: ``content()`` would also merge the script's settings with
    /// the server's, which a step's substitutions never use (about 3,000 instructions a reply).
    func substitutionContext(base: SubstitutionContext, selectedFile: String?) -> SubstitutionContext {
        var context = base
        shared.withLock { shared in
            if let name = selectedFile {
                context.fileName = name
                context.data = shared.store.files[name] ?? shared.data
            } else {
                context.data = shared.data
            }
        }
        return context
    }

    @inline(__always)
    func record(_ event: Transcript.Event, connection: Int, channel: Transcript.Channel = .main) {
        environment.record(event, connection: connection, channel: channel)
    }
}
