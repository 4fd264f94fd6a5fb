/// A named response: a pattern and the commands to run when it matches.
public struct ResponseEntry: Sendable {
    /// The response's name, as in the response file.
    public let name: String
    /// What the response answers.
    public let pattern: Pattern
    /// What it does, in order. No commands means the input is swallowed.
    public let commands: [Command]
    /// A note for readers of the script.
    public let comment: String?

    /// Creates a response from a compiled pattern.
    public init(name: String, pattern: Pattern, commands: [Command], comment: String? = nil) {
        self.name = name
        self.pattern = pattern
        self.commands = commands
        self.comment = comment
    }

    /// Creates a response, compiling `pattern` (`«initial»` is the connect marker).
    ///
    /// - Throws: ``PatternError`` when the pattern does not compile.
    public init(_ name: String, pattern: String, commands: [Command], comment: String? = nil) throws(PatternError) {
        self.init(name: name, pattern: try Pattern(pattern), commands: commands, comment: comment)
    }
}
