import MockServerCore
import MockServerFileSystem
import MockServerHTTP
import MockServerWebDAV
import MockServerScript

/// A ``Responder`` script with `scheme: http` or `webdav` answering through the HTTP layer: each
/// request is matched as it was sent, and the matching response's commands become the reply.
///
/// Commands run when the request is answered, in order: `{"save": …}`, `{"mkdir": …}` and the
/// other file commands change the server's files then, and `«data»`, `$size` and `«propfind»` see
/// the files as they are at that point. Pauses and faults are steps of the reply.
///
/// A class, so that handing it out as `any HTTPResponder` for every request copies a reference.
final class ScriptHTTPResponder: HTTPResponder {
    let core: ServerCore
    /// The substitution values that do not change while the server runs.
    let base: SubstitutionContext

    init(core: ServerCore, base: SubstitutionContext) {
        self.core = core
        self.base = base
    }

    private static let sessionKey = "MockServer.ResponderSession"

    func respond(to request: HTTPRequest, context: HTTPRequestContext) async throws -> HTTPReply? {
        reply(to: request, context: context, head: false)
    }

    func answerImmediately(_ request: HTTPRequest, context: HTTPRequestContext) throws -> HTTPImmediateAnswer {
        reply(to: request, context: context, head: false).map { .reply($0) } ?? .unmatched
    }

    func answerHead(_ head: HTTPRequest, context: HTTPRequestContext) -> HTTPReply? {
        reply(to: head, context: context, head: true)
    }

    private func reply(to request: HTTPRequest, context: HTTPRequestContext, head: Bool) -> HTTPReply? {
        var session = context.connectionState[Self.sessionKey] as? ResponderSession ?? ResponderSession(connectionID: context.connectionID)
        let (responder, substitutions) = core.replyState(base: base)
        var values = substitutions
        values.request = request
        let answer = head
            ? responder.respond(toHead: request.input, session: &session, context: values)
            : responder.respond(to: request.input, session: &session, context: values)
        guard let answer else { return nil }
        let run = Run(core: core, base: values, request: request, context: context, session: session)
        return HTTPReply(steps: run.steps(for: answer.actions[...], now: false), name: answer.response)
    }

    /// One reply being carried out: the selected file and the session as its commands change them.
    ///
    /// Commands that read or change the server (a set switch, a file selection, the file commands,
    /// `«propfind»`) run when the reply reaches them, after what comes before them has been sent
    /// and its pauses waited out, as on a line connection; the transcript shows them in that order.
    private final class Run: Sendable {
        private struct State {
            var session: ResponderSession
            var selectedFile: String?
        }

        let core: ServerCore
        let base: SubstitutionContext
        let request: HTTPRequest
        let context: HTTPRequestContext
        private let state: Locked<State>

        init(core: ServerCore, base: SubstitutionContext, request: HTTPRequest, context: HTTPRequestContext, session: ResponderSession) {
            self.core = core
            self.base = base
            self.request = request
            self.context = context
            self.state = Locked(State(session: session))
        }

        private var values: SubstitutionContext {
            core.substitutionContext(base: base, selectedFile: state.withLock { $0.selectedFile })
        }

        /// The reply's steps for `actions`; an `otherwise` that runs replaces the rest. With `now`,
        /// the first action runs at once even when it acts on the server (the reply has reached it).
        func steps(for actions: ArraySlice<Action>, now: Bool) -> [HTTPReplyStep] {
            var steps: [HTTPReplyStep] = []
            var index = actions.startIndex
            while index < actions.endIndex {
                let action = actions[index]
                if action.actsOnServer && !(now && index == actions.startIndex) {
                    let rest = actions[index...]
                    steps.append(.then { [self] in self.steps(for: rest, now: true) })
                    return steps
                }
                index += 1
                switch action {
                case .send(let bytes):
                    steps.append(.raw(bytes))
                case .render(let rendering):
                    if case .response(let template) = rendering.content {
                        steps.append(.response(template.response(input: rendering.input, groups: rendering.groups, context: values)))
                    } else {
                        steps.append(.raw(rendering.render(values)))
                    }
                case .sendData:
                    steps.append(.raw(values.data))
                case .pause(let duration):
                    steps.append(.pause(duration))
                case .close:
                    steps.append(.close)
                case .fault(let fault):
                    if let streamFault = fault.streamFault { steps.append(.fault(streamFault)) }
                case .continueRequest:
                    steps.append(.continueRequest)
                case .useSet(let name):
                    let session = state.withLock { state in
                        state.session.responseSet = name
                        return state.session
                    }
                    context.connectionState[ScriptHTTPResponder.sessionKey] = session
                    context.record(.switchedSet(name))
                    context.environment.logger.log(.debug, "switched to set \"\(name)\"", connection: context.connectionID)
                case .selectFile(let rendering, let otherwise, let strict):
                    let requested = rendering.text(values)
                    let files = core.files
                    let stored = FileName.stored(requested, in: files)
                    if let otherwise, strict || !files.isEmpty, stored == nil {
                        return steps + self.steps(for: otherwise[...], now: false)
                    }
                    state.withLock { $0.selectedFile = stored ?? requested }
                case .saveBody(let rendering):
                    core.saveBody(of: rendering.input, request: request, as: rendering.text(values), connection: context.connectionID)
                case .propfind:
                    steps.append(.response(core.propfindResponse(for: request)))
                case .webdav:
                    steps.append(.response(core.webdavResponse(for: request, connection: context.connectionID)))
                case .makeFolder(let rendering, let otherwise):
                    if !core.makeFolder(rendering.text(values)), let otherwise { return steps + self.steps(for: otherwise[...], now: false) }
                case .deleteFile(let rendering, let otherwise):
                    if !core.deleteFile(rendering.text(values)), let otherwise { return steps + self.steps(for: otherwise[...], now: false) }
                case .copyFile(let source, let destination, let move, let otherwise):
                    let current = values
                    if !core.copyFile(source.text(current), to: destination.text(current), move: move), let otherwise {
                        return steps + self.steps(for: otherwise[...], now: false)
                    }
                case .openPassive, .connectActive, .transfer, .ftp:
                    // FTP data connections belong to line scripts; an HTTP exchange has none.
                    context.environment.logger.log(.warning, "an HTTP script ran an FTP data command; ignored", connection: context.connectionID)
                }
            }
            return steps
        }
    }
}

extension Action {
    /// Whether the action reads or changes the server or the connection's state, so that it must
    /// run when the reply reaches it rather than when the reply is worked out.
    fileprivate var actsOnServer: Bool {
        switch self {
        case .useSet, .selectFile, .saveBody, .propfind, .webdav, .makeFolder, .deleteFile, .copyFile: true
        case .send, .render, .sendData, .pause, .close, .fault, .continueRequest, .openPassive, .connectActive, .transfer, .ftp: false
        }
    }
}
