import MockServerCore

/// What a ``ScriptResponder`` decided for one input unit: the commands to carry out and the match they answer.
public struct ScriptReply: Sendable, Hashable {
    /// The commands to carry out, in order. Empty means the input is swallowed.
    public var commands: [ScriptCommand]
    /// The input and capture groups that `$0`, `$1`… stand for.
    public var match: ScriptMatch
    /// The name of the response that matched, for the transcript.
    public var response: String?

    /// Creates a reply.
    public init(commands: [ScriptCommand], match: ScriptMatch, response: String? = nil) {
        self.commands = commands
        self.match = match
        self.response = response
    }
}
