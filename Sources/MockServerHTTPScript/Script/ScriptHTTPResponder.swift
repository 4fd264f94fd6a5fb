import MockServerCore
import MockServerHTTP
import MockServerScript

/// A ``MockServerScript/ScriptResponder`` script with `scheme: http` or `webdav` answering through the
/// HTTP layer: each request is matched as it was sent, and the matching response's commands become
/// the reply, carried out by a ``MockServerScript/ScriptRun``.
///
/// Commands run when the request is answered, in order: `{"save": …}`, `{"mkdir": …}` and the
/// other file commands change the server's files then, and `«data»`, `$size` and `«propfind»` see
/// the files as they are at that point. Pauses and faults are steps of the reply.
///
/// A class, so that handing it out as `any HTTPMockResponder` for every request copies a reference.
package final class ScriptHTTPResponder: HTTPMockResponder {
    let server: any ScriptServer
    /// The substitution values that do not change while the server runs.
    package let base: SubstitutionContext

    package init(server: any ScriptServer, base: SubstitutionContext) {
        self.server = server
        self.base = base
    }

    package func respond(to request: HTTPMockRequest, context: HTTPRequestContext) async throws -> HTTPReply? {
        reply(to: request, context: context, head: false)
    }

    package func answerImmediately(_ request: HTTPMockRequest, context: HTTPRequestContext) throws -> HTTPReply.Immediate {
        reply(to: request, context: context, head: false).map { .reply($0) } ?? .unmatched
    }

    package func answerHead(_ head: HTTPMockRequest, context: HTTPRequestContext) -> HTTPReply? {
        reply(to: head, context: context, head: true)
    }

    private func reply(to request: HTTPMockRequest, context: HTTPRequestContext, head: Bool) -> HTTPReply? {
        let connection = context.scriptConnection
        let storage = connection.storage
        var session = storage.session
        let before = session.responseSet
        // The connection's values are updated in place, not copied from `base` for each request.
        let current = connection.serverResponder(of: server, base: base)
        // The request's values, made only for what reads them: a responder of one's own, and a
        // reply worked out when it is made (a script's responder chooses without them). A
        // connection's replies come one at a time, so the values are those read with `current`.
        func values() -> SubstitutionContext {
            var values = connection.values ?? base
            values.protocolValues[HTTPMockRequest.self] = request
            values.body = request.body
            return values
        }
        let answer: ScriptReply?
        // The script's responder, known when the server's responder was set, is used in place:
        // neither cast nor copied for each request.
        if current.isPatternResponder && !head {
            switch current.choose(request.input, session: &session) {
            case .prepared(let prepared, let response)?:
                // Constant bytes, pauses, closes and faults, and the connection's steps for them,
                // all worked out when the script was loaded: the reply holds them as they are.
                if session.responseSet != before { storage.session = session }
                return HTTPReply(prepared: prepared, name: response)
            case .reply(let reply)?:
                answer = reply
            case nil:
                answer = nil
            }
        } else if current.isPatternResponder {
            answer = current.respond(toPart: request.input, answeredBy: HTTPHeadAnswer.self, session: &session)
        } else {
            answer = head
                ? (current.responder as? any ScriptHeadResponder)?.respond(toHead: request.input, session: &session, context: values())
                : current.responder.respond(to: request.input, session: &session, context: values())
        }
        if session.responseSet != before { storage.session = session }
        guard let answer else { return nil }
        if let prepared = answer.constantStreamSteps {
            // The same from a head's answer or a responder of one's own.
            return HTTPReply(prepared: prepared, name: answer.response)
        }
        if let plain = answer.plainSteps {
            // Constant output only: nothing to work out when the reply is reached.
            return HTTPReply(steps: plain.map { $0.widened() }, name: answer.response)
        }
        if let prepared = answer.constantOutputSteps as? ConstantReplySteps<HTTPReplyOutput> {
            // Constant responses among them, worked out with the script's entry: its steps as they are.
            return HTTPReply(steps: prepared.steps, name: answer.response)
        }
        if let constant = HTTPScriptCommand.constantSteps(of: answer.commands) {
            // The same from a responder of one's own, worked out now, without a run.
            return HTTPReply(steps: constant, name: answer.response)
        }
        let run = ScriptRun(server: server, base: values(), connectionID: context.connectionID, storage: storage)
        return HTTPReply(steps: run.steps(for: answer.commands, match: answer.match), name: answer.response)
    }
}
