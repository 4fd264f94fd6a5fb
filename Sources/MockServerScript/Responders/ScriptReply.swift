import MockServerCore

/// What a ``ScriptResponder`` decided for one input unit: the commands to carry out and the match they answer.
public struct ScriptReply: Sendable {
    /// The commands to carry out, in order. Empty means the input is swallowed.
    public var commands: [ScriptCommand]
    /// The input and capture groups that `$0`, `$1`… stand for.
    public var match: ScriptRun.Match
    /// The name of the response that matched, for the transcript.
    public var response: String?
    /// The reply's steps when its commands only send constant bytes, pause, close or fail, known in
    /// advance (``ResponseEntry``), so that a driver can skip the interpreter; `nil` otherwise.
    package var plainSteps: [ReplyStep<Never>]?
    /// The connection's steps for ``plainSteps``, converted once with the entry
    /// (``ResponseEntry/constantStreamSteps``); `nil` when they are not known in advance.
    package var constantStreamSteps: ConstantStreamSteps?
    /// The steps in the protocol's output, worked out once with the entry
    /// (``ResponseEntry/constantOutputSteps``); `nil` when they are not known in advance.
    package var constantOutputSteps: (any AnyObject & Sendable)?

    /// Creates a reply.
    public init(commands: [ScriptCommand], match: ScriptRun.Match, response: String? = nil) {
        self.commands = commands
        self.match = match
        self.response = response
    }

    /// The reply of `entry`'s commands to `match`.
    package init(entry: ResponseEntry, match: ScriptRun.Match) {
        self.commands = entry.commands
        self.match = match
        self.response = entry.name
        self.plainSteps = entry.plainSteps
        self.constantStreamSteps = entry.constantStreamSteps
        self.constantOutputSteps = entry.constantOutputSteps
    }
}
