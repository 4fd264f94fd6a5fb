import MockServerCore
import MockServerHTTP
import MockServerScript

/// HTTP's script commands.
package enum HTTPScriptCommand: ProtocolCommand {
    /// Sends an HTTP response with a computed `Content-Length` (`{"response": {…}}`).
    case response(HTTPResponseTemplate)
    /// Sends `HTTP/1.1 100 Continue` and lets the client send the body (`«continue»`); only in a
    /// response that answers request heads (``MockServerScript/ResponseEntry/answersHead``).
    case continueRequest

    /// Both only produce output: they are worked out with the reply.
    package var runsWhenReached: Bool { false }

    package func run(_ match: ScriptRun.Match, in reply: ScriptRun) -> ScriptRun.Outcome<HTTPReplyOutput> {
        switch self {
        case .response(let template):
            let response = template.response(input: match.input, groups: match.groups, context: reply.values)
            return if let streamed = template.streamed {
                .continue([.output(.response(streamed.head(for: response)))] + streamed.steps)
            } else {
                .continue([.output(.response(response))])
            }
        case .continueRequest:
            return .continue([.output(.continueRequest)])
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
