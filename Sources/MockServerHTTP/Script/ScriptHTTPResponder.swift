import MockServerCore
import MockServerScript

/// A ``MockServerScript/ScriptResponder`` script with `scheme: http` or `webdav` answering through the
/// HTTP layer: each request is matched as it was sent, and the matching response's commands become
/// the reply, carried out by a ``MockServerScript/ScriptRun``.
///
/// Commands run when the request is answered, in order: `{"save": …}`, `{"mkdir": …}` and the
/// other file commands change the server's files then, and `«data»`, `$size` and `«propfind»` see
/// the files as they are at that point. Pauses and faults are steps of the reply.
///
/// A class, so that handing it out as `any HTTPResponder` for every request copies a reference.
package final class ScriptHTTPResponder: HTTPResponder {
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
        let storage = context.scriptStorage
        var session = storage.session
        let before = session.responseSet
        let (responder, substitutions) = server.replyState(base: base)
        var values = substitutions
        values.protocolValues[HTTPMockRequest.self] = request
        values.body = request.body
        let answer = head
            ? (responder as? any ScriptHeadResponder)?.respond(toHead: request.input, session: &session, context: values)
            : responder.respond(to: request.input, session: &session, context: values)
        if session.responseSet != before { storage.session = session }
        guard let answer else { return nil }
        if let plain = answer.plainSteps {
            // Constant output only: nothing to work out when the reply is reached.
            return HTTPReply(steps: Self.convert(plain[...], output: Self.append), name: answer.response)
        }
        let run = ScriptRun(server: server, base: values, connectionID: context.connectionID, storage: storage)
        let steps = run.steps(for: answer.commands, match: answer.match, as: HTTPScriptOutput.self)
        return HTTPReply(steps: Self.convert(steps[...]) { output, result in Self.append(output, to: &result) }, name: answer.response)
    }

    /// The reply's steps for the interpreter's, whose outputs `output` appends.
    private static func convert<Output>(_ steps: ArraySlice<ReplyStep<Output>>,
                                        output: @escaping @Sendable (Output, inout [HTTPReplyStep]) -> Void) -> [HTTPReplyStep] {
        var result: [HTTPReplyStep] = []
        result.reserveCapacity(steps.count)
        for index in steps.indices {
            switch steps[index] {
            case .send(let bytes): result.append(.raw(bytes))
            case .pause(let duration): result.append(.pause(duration))
            case .close: result.append(.close)
            case .fault(let fault): result.append(.fault(fault))
            case .conditions(let conditions):
                // In an HTTP reply, conditions last to the end of the response (`null` has nothing to lift).
                if let conditions { result.append(.conditions(conditions)) }
            case .output(let value): output(value, &result)
            case .then(let rest):
                // An HTTP reply works out its rest last: what follows joins what `rest` returns.
                let following = steps[(index + 1)...]
                result.append(.then { convert(ArraySlice(rest() + following), output: output) })
                return result
            }
        }
        return result
    }

    /// A reply without output appends none.
    private static func append(_ output: Never, to result: inout [HTTPReplyStep]) {}

    /// The reply steps of one of HTTP's outputs.
    private static func append(_ output: HTTPScriptOutput, to result: inout [HTTPReplyStep]) {
        switch output {
        case .response(let response): result.append(.response(response))
        case .streamed(let head, let steps):
            result.append(.response(head))
            result += steps
        case .continueRequest: result.append(.continueRequest)
        }
    }
}
