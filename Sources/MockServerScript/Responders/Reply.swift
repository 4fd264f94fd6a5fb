import MockServerCore
/// What a ``Responder`` decided for one input unit.
public struct Reply: Sendable, Hashable {
    /// The steps to carry out, in order. Empty means the input is swallowed.
    public var actions: [Action]
    /// The name of the response that matched, for the transcript.
    public var response: String?

    /// Creates a reply.
    public init(actions: [Action], response: String? = nil) {
        self.actions = actions
        self.response = response
    }
}
