import MockServerCore
import MockServerScript

/// A response script tried before a mail session, on each command line and on the greeting: what
/// its patterns answer goes out as the script says, the rest goes to the session. One per
/// connection, on its loop thread.
///
/// Its replies are the shared commands (text, pauses, closes, faults, conditions): a script whose
/// commands need another protocol's connections (FTP's, `«starttls»`) is refused when the server starts.
final class MailScriptHook {
    private let server: any ScriptServer
    /// The substitution values, refreshed by each reply (``ScriptServer/replyState(updating:)``).
    private var context: SubstitutionContext
    /// The script's session on this connection (its set, switched by the script).
    private var session = ScriptSession(connectionID: 0)
    /// Made when a reply needs the interpreter.
    private var storage: ScriptConnectionStorage?

    init(server: any ScriptServer, base: SubstitutionContext) {
        self.server = server
        self.context = base
    }

    /// The script's greeting (its `«initial»` entry), if it has one.
    func greeting(on connection: StreamConnection) -> [StreamStep]? {
        session = ScriptSession(connectionID: connection.id)
        let responder = server.replyState(updating: &context)
        guard let reply = responder.connected(session: &session, context: context) else { return nil }
        return steps(for: reply, on: connection)
    }

    /// The script's answer to `line` (a command line without its end), recorded in the
    /// transcript with the entry's name; nil when no pattern takes it.
    func answer(_ line: ArraySlice<UInt8>, on connection: StreamConnection) -> [StreamStep]? {
        let input = InputUnit(bytes: Array(line))
        let responder = server.replyState(updating: &context)
        guard let reply = responder.respond(to: input, session: &session, context: context) else { return nil }
        connection.recordInput(input, response: reply.response)
        return steps(for: reply, on: connection)
    }

    private func steps(for reply: ScriptReply, on connection: StreamConnection) -> [StreamStep] {
        if let constant = reply.constantStreamSteps { return constant.steps }
        if let plain = reply.plainSteps { return PlainReplyPerformer.shared.streamSteps(for: plain, on: connection) }
        let storage = self.storage ?? ScriptConnectionStorage(connectionID: connection.id)
        self.storage = storage
        storage.session = session
        let run = ScriptRun(server: server, base: context, connectionID: connection.id, storage: storage)
        let steps = PlainReplyPerformer.shared.streamSteps(for: run.steps(for: reply.commands, match: reply.match, as: Never.self), on: connection)
        session = storage.session
        return steps
    }
}
