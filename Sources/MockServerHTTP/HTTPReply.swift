import MockServerCore

/// What an ``HTTPMockResponder`` answers a request with: usually one response, but a reply can also
/// pause, send bytes exactly as given, or fail on purpose, in order.
///
/// Its steps are the step language every driver speaks, with HTTP's own output (a response, `100
/// Continue`, an upgrade). A ``MockServerCore/ReplyStep/conditions(_:)`` lasts to the end of the
/// response (`nil` has nothing to lift), and a `then` works out its steps when reached, before the rest.
public struct HTTPReply: Sendable {
    /// The steps, in order. A reply made from steps worked out in advance (``init(prepared:name:)``)
    /// makes them when they are read (by an HTTP/2 stream or an in-process client).
    package var steps: [ReplyStep<HTTPReplyOutput>] {
        get {
            switch form {
            case .steps(let steps): steps
            case .prepared(let prepared): prepared.replySteps.map { $0.widened() }
            }
        }
        set { form = .steps(newValue) }
    }
    /// A name for the transcript (the script response or stub that answered).
    public var name: String?
    /// Whether the request was unexpected: the transcript records it as unmatched (and test
    /// helpers report it), although this reply answers it and the connection goes on.
    public var isUnexpected: Bool

    /// How the steps are held.
    private var form: Form

    /// The steps as made for this reply, or worked out once, in advance, and shared by every reply
    /// that gives them (a script's constant reply).
    private enum Form: Sendable {
        /// Steps made for this reply.
        case steps([ReplyStep<HTTPReplyOutput>])
        /// Steps that only send constant bytes, pause, close or fail, with the connection's steps
        /// for them, both worked out in advance: neither is made again for the reply.
        case prepared(ConstantStreamSteps)
    }

    /// Creates a reply of steps.
    package init(steps: [ReplyStep<HTTPReplyOutput>], name: String? = nil, isUnexpected: Bool = false) {
        self.form = .steps(steps)
        self.name = name
        self.isUnexpected = isUnexpected
    }

    /// A reply of steps worked out in advance (a script entry's, when it was loaded), with the
    /// connection's steps for them, which an HTTP/1.1 connection that stays open runs as they are
    /// (``preparedStreamSteps``). Nothing is made for the reply but itself.
    package init(prepared: ConstantStreamSteps, name: String?) {
        self.form = .prepared(prepared)
        self.name = name
        self.isUnexpected = false
    }

    /// A reply of one response.
    public init(_ response: HTTPMockResponse, name: String? = nil, isUnexpected: Bool = false) {
        self.init(steps: [.output(.response(response))], name: name, isUnexpected: isUnexpected)
    }

    /// The connection's steps for a reply worked out in advance (``init(prepared:name:)``),
    /// shared by every reply that gives them; `nil` for a reply made of its own steps.
    package var preparedStreamSteps: [StreamStep]? {
        if case .prepared(let prepared) = form { return prepared.steps }
        return nil
    }
}
