import MockServerCore
import MockServerHTTP
import MockServerScript

/// HTTP's script commands.
package enum HTTPScriptCommand: ConstantOutputCommand {
    /// Sends an HTTP response with a computed `Content-Length` (`{"response": {…}}`).
    case response(HTTPResponseTemplate)
    /// Sends `HTTP/1.1 100 Continue` and lets the client send the body (`«continue»`); only in a
    /// response that answers request heads (``MockServerScript/ResponseEntry/answersHead``).
    case continueRequest
    /// An HTTP/2 fault in place of a response (`{"reset": "CANCEL"}`, `{"stall": true}`, …), with
    /// the error that refuses it, at its line and column, on a server that speaks only HTTP/1.1.
    case streamFault(HTTPStreamFault, refusedOnHTTP11: Refusal)

    /// The load error that refuses an HTTP/2 fault on a server that speaks only HTTP/1.1; commands
    /// are hashed by their fault alone.
    package struct Refusal: Sendable, Hashable {
        package let error: ResponseFileError

        package static func == (lhs: Refusal, rhs: Refusal) -> Bool { lhs.error == rhs.error }
        package func hash(into hasher: inout Hasher) { hasher.combine(error.description) }
    }

    /// All three only produce output: they are worked out with the reply.
    package var runsWhenReached: Bool { false }

    package func run(_ match: ScriptRun.Match, in reply: ScriptRun) -> ScriptRun.Outcome<HTTPReplyOutput> {
        if let steps = constantSteps { return .continue(steps) }
        guard case .response(let template) = self else { preconditionFailure("only a response is worked out per request") }
        let response = template.response(input: match.input, groups: match.groups, context: reply.values)
        return if let streamed = template.streamed {
            .continue([.output(.response(streamed.head(for: response)))] + streamed.steps)
        } else {
            .continue([.output(.response(response))])
        }
    }

    /// The command's steps when they are the same for every request, so that a reply needs no
    /// ``MockServerScript/ScriptRun`` for them: a response without substitutions
    /// (``HTTPResponseTemplate/constantResponse``), `100 Continue`, a fault; `nil` for a response
    /// worked out per request.
    package var constantSteps: [ReplyStep<HTTPReplyOutput>]? {
        switch self {
        case .response(let template): template.constantResponse.map { [.output(.response($0))] }
        case .continueRequest: [.output(.continueRequest)]
        case .streamFault(let fault, _): [.output(.streamFault(fault))]
        }
    }
}

extension ScriptCommand {
    /// Sends an HTTP response with a computed `Content-Length` (`{"response": {…}}`).
    package static func httpResponse(_ template: HTTPResponseTemplate) -> ScriptCommand {
        .command(HTTPScriptCommand.response(template))
    }

    /// Sends `HTTP/1.1 100 Continue` and lets the client send the body (`«continue»`).
    public static var continueRequest: ScriptCommand { .command(HTTPScriptCommand.continueRequest) }
}

extension ResponseScript {
    /// The load error of the script's first HTTP/2 fault (`{"reset": …}`, `{"stall": true}`, …), at
    /// its line and column: what a server that speaks only HTTP/1.1 refuses the script with.
    package var http2FaultRefusal: ResponseFileError? {
        let found = firstCommand { command in
            guard case .protocolCommand(let wrapped) = command, case .streamFault? = wrapped.base as? HTTPScriptCommand else { return false }
            return true
        }
        guard case .protocolCommand(let wrapped)? = found?.command, case .streamFault(_, let refusal)? = wrapped.base as? HTTPScriptCommand else { return nil }
        return refusal.error
    }
}
