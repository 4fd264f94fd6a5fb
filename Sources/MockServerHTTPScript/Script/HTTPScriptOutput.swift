import MockServerCore
import MockServerHTTP

/// What HTTP's script commands hand to the HTTP driver (through ``MockServerScript/ScriptStep/output(_:)``)
/// besides bytes.
package enum HTTPScriptOutput: Sendable {
    /// A response, written for the request it answers.
    case response(HTTPMockResponse)
    /// A response's head (chunked), then its body's timed pieces.
    case streamed(head: HTTPMockResponse, steps: [HTTPReplyStep])
    /// `100 Continue`, letting a waiting client send its body.
    case continueRequest
}
