import MockServerCore
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
        let stored = context.connectionState[Self.sessionKey] as? ResponderSession
        var session = stored ?? ResponderSession(connectionID: context.connectionID)
        let (responder, substitutions) = core.replyState(base: base)
        var values = substitutions
        values.request = request
        let answer = head
            ? responder.respond(toHead: request.input, session: &session, context: values)
            : responder.respond(to: request.input, session: &session, context: values)
        guard let answer else { return nil }
        var run = Run(core: core, base: values, request: request, context: context, session: session)
        let steps = run.steps(for: answer.actions)
        if run.session.responseSet != stored?.responseSet { context.connectionState[Self.sessionKey] = run.session }
        return HTTPReply(steps: steps, name: answer.response)
    }

    /// One reply being worked out: the selected file and the session as the commands change them.
    private struct Run {
        let core: ServerCore
        let base: SubstitutionContext
        let request: HTTPRequest
        let context: HTTPRequestContext
        var session: ResponderSession
        var selectedFile: String?

        init(core: ServerCore, base: SubstitutionContext, request: HTTPRequest, context: HTTPRequestContext, session: ResponderSession) {
            self.core = core
            self.base = base
            self.request = request
            self.context = context
            self.session = session
        }

        private var values: SubstitutionContext { core.substitutionContext(base: base, selectedFile: selectedFile) }

        /// The reply's steps for `actions`; an `otherwise` that runs replaces the rest.
        mutating func steps(for actions: [Action]) -> [HTTPReplyStep] {
            var steps: [HTTPReplyStep] = []
            for action in actions {
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
                case .useSet(let name):
                    session.responseSet = name
                    context.record(.switchedSet(name))
                case .selectFile(let rendering, let otherwise, let strict):
                    let requested = rendering.text(values)
                    let files = core.files
                    let stored = FileName.stored(requested, in: files)
                    if let otherwise, strict || !files.isEmpty, stored == nil {
                        return steps + self.steps(for: otherwise)
                    }
                    selectedFile = stored ?? requested
                case .fault(let fault):
                    if let streamFault = fault.streamFault { steps.append(.fault(streamFault)) }
                case .saveBody(let rendering):
                    core.saveBody(of: rendering.input, request: request, as: rendering.text(values), connection: context.connectionID)
                case .continueRequest:
                    steps.append(.continueRequest)
                case .propfind:
                    steps.append(.response(core.propfindResponse(for: request)))
                case .makeFolder(let rendering, let otherwise):
                    if !core.makeFolder(rendering.text(values)), let otherwise { return steps + self.steps(for: otherwise) }
                case .deleteFile(let rendering, let otherwise):
                    if !core.deleteFile(rendering.text(values)), let otherwise { return steps + self.steps(for: otherwise) }
                case .copyFile(let source, let destination, let move, let otherwise):
                    let current = values
                    if !core.copyFile(source.text(current), to: destination.text(current), move: move), let otherwise {
                        return steps + self.steps(for: otherwise)
                    }
                case .openPassive, .connectActive, .transfer:
                    // FTP data connections belong to line scripts; an HTTP exchange has none.
                    context.environment.logger.log(.warning, "an HTTP script ran an FTP data command; ignored", connection: context.connectionID)
                }
            }
            return steps
        }
    }
}
