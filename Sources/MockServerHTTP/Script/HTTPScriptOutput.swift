import MockServerCore

/// What HTTP's script commands hand to the HTTP driver (through ``MockServerCore/ReplyStep/output(_:)``)
/// besides bytes: the output type of HTTP scripts.
package enum HTTPScriptOutput: Sendable {
    /// A response, written for the request it answers.
    case response(HTTPMockResponse)
    /// A response's head (chunked), then its body's timed pieces.
    case streamed(head: HTTPMockResponse, steps: [HTTPReplyStep])
    /// `100 Continue`, letting a waiting client send its body.
    case continueRequest
}
