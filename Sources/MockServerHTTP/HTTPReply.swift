import MockServerCore

/// What an ``HTTPMockResponder`` answers a request with: usually one response, but a reply can also
/// pause, send bytes exactly as given, or fail on purpose, in order.
///
/// Its steps are the step language every driver speaks, with HTTP's own output (a response, `100
/// Continue`, an upgrade). A ``MockServerCore/ReplyStep/conditions(_:)`` lasts to the end of the
/// response (`nil` has nothing to lift), and a `then` works out its steps when reached, before the rest.
public struct HTTPReply: Sendable {
    /// The steps, in order.
    package var steps: [ReplyStep<HTTPReplyOutput>]
    /// A name for the transcript (the script response or stub that answered).
    public var name: String?
    /// Whether the request was unexpected: the transcript records it as unmatched (and test
    /// helpers report it), although this reply answers it and the connection goes on.
    public var isUnexpected: Bool

    /// Creates a reply of steps.
    package init(steps: [ReplyStep<HTTPReplyOutput>], name: String? = nil, isUnexpected: Bool = false) {
        self.steps = steps
        self.name = name
        self.isUnexpected = isUnexpected
    }

    /// A reply of one response.
    public init(_ response: HTTPMockResponse, name: String? = nil, isUnexpected: Bool = false) {
        self.init(steps: [.output(.response(response))], name: name, isUnexpected: isUnexpected)
    }
}
