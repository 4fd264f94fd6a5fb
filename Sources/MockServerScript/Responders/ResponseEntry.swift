import MockServerCore
/// A named response: a pattern and the commands to run when it matches.
public struct ResponseEntry: Sendable {
    /// The response's name, as in the response file.
    public let name: String
    /// What the response answers.
    public let pattern: InputPattern
    /// What it does, in order. No commands means the input is swallowed.
    public let commands: [ScriptCommand]
    /// A note for readers of the script.
    public let comment: String?
    /// Whether this response answers the head of an HTTP request whose client waits for
    /// `100 Continue` before sending the body (`"head": true`), instead of whole requests.
    ///
    /// When such a response matches, its commands are the answer: `«continue»`
    /// lets the body come, and the whole request is then answered as
    /// usual; without it the body is never awaited, and once the answer is sent the server stops
    /// sending, discards what the client still sends and closes when the client does.
    public let answersHead: Bool
    /// The steps of ``commands`` when they only send constant bytes, pause, close or fail (most
    /// responses of a line script), worked out once by the interpreter
    /// (``ScriptRun/constantSteps(of:)``); `nil` otherwise.
    package let plainSteps: [ReplyStep<Never>]?

    /// Creates a response from a compiled pattern.
    public init(name: String, pattern: InputPattern, commands: [ScriptCommand], comment: String? = nil, answersHead: Bool = false) {
        self.name = name
        self.pattern = pattern
        self.commands = commands
        self.comment = comment
        self.answersHead = answersHead
        self.plainSteps = ScriptRun.constantSteps(of: commands)
    }

    /// Creates a response, compiling `pattern` (`«initial»` is the connect marker).
    ///
    /// - Throws: ``PatternError`` when the pattern does not compile.
    public init(_ name: String, pattern: String, commands: [ScriptCommand], comment: String? = nil, answersHead: Bool = false) throws(PatternError) {
        self.init(name: name, pattern: try InputPattern(pattern), commands: commands, comment: comment, answersHead: answersHead)
    }
}
