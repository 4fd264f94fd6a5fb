import MockServerCore

/// What an ``HTTPResponder`` answers a request with: usually one response, but a reply can also
/// pause, send bytes exactly as given, or fail on purpose, in order.
public struct HTTPReply: Sendable {
    /// The steps, in order.
    package var steps: [HTTPReplyStep]
    /// A name for the transcript (the script response or stub that answered).
    public var name: String?
    /// Whether the request was unexpected: the transcript records it as unmatched (and test
    /// helpers report it), although this reply answers it and the connection goes on.
    public var isUnexpected: Bool

    /// Creates a reply of steps.
    package init(steps: [HTTPReplyStep], name: String? = nil, isUnexpected: Bool = false) {
        self.steps = steps
        self.name = name
        self.isUnexpected = isUnexpected
    }

    /// A reply of one response.
    public init(_ response: HTTPMockResponse, name: String? = nil, isUnexpected: Bool = false) {
        self.init(steps: [.response(response)], name: name, isUnexpected: isUnexpected)
    }
}

/// One step of an ``HTTPReply``.
package enum HTTPReplyStep: Sendable {
    /// A response, written by ``HTTPResponseSerializer`` for the request it answers.
    case response(HTTPMockResponse)
    /// Bytes sent exactly as given (a script's literal response text).
    case raw([UInt8])
    /// A wait before the next step; the connection holds no thread meanwhile.
    case pause(Duration)
    /// Closes the connection once what came before is sent.
    case close
    /// A failure on demand: reset, half-close, hang, truncate or dribble.
    case fault(StreamFault)
    /// `100 Continue`: in an answer to a request head, lets the client send the body.
    case continueRequest
    /// Works out the rest of the reply when it is reached, on the server's thread, once the steps
    /// before it have been sent and their pauses waited out; the steps it returns end the reply.
    /// It must be the last step (any after it are ignored) and must return quickly.
    case then(@Sendable () -> [HTTPReplyStep])
    /// Runs the rest of the reply under network conditions (a stub's own, a slow endpoint's),
    /// drawn with their probability when reached; the connection's own come back once the reply
    /// has been written. In-process connections have no network and ignore them.
    case conditions(NetworkConditions)
    /// Switches the connection to another protocol (a WebSocket, say): the upgrade answers the
    /// request (`101 Switching Protocols`, or a refusal), and from then on the connection's bytes are
    /// the new protocol's. It must be the last step; any after it are ignored.
    case upgrade(HTTPUpgrade)
}
