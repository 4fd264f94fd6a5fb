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
    /// What the script's protocols read from the response's own keys, each in a type of its own
    /// (``ScriptResponseKeys``); empty for most responses.
    package let traits: ScriptSettings
    /// Whether the response answers a part of a unit that a protocol's driver asks about (a trait
    /// that is a ``PartialInputAnswer``), rather than whole units.
    package let answersPart: Bool
    /// The steps of ``commands`` when they only send constant bytes, pause, close or fail (most
    /// responses of a line script), worked out once by the interpreter
    /// (``ScriptRun/constantSteps(of:)``); `nil` otherwise.
    package let plainSteps: [ReplyStep<Never>]?
    /// The connection's steps for ``plainSteps``, converted once, when none needs the connection:
    /// a line reply's steps, ready to run.
    package let constantStreamSteps: ConstantStreamSteps?
    /// The steps of ``commands`` in their protocol's output (a ``ConstantReplySteps``), when each is
    /// the same for every reply and one is a ``ConstantOutputCommand`` (HTTP's response without
    /// substitutions), worked out once; `nil` otherwise.
    package let constantOutputSteps: (any AnyObject & Sendable)?

    /// Creates a response from a compiled pattern.
    public init(name: String, pattern: InputPattern, commands: [ScriptCommand], comment: String? = nil) {
        self.init(name: name, pattern: pattern, commands: commands, comment: comment, traits: [])
    }

    /// Creates a response with the values its protocols read from its own keys.
    package init(name: String, pattern: InputPattern, commands: [ScriptCommand], comment: String?, traits: [any Sendable]) {
        self.name = name
        self.pattern = pattern
        self.commands = commands
        self.comment = comment
        self.traits = ScriptSettings(traits)
        self.answersPart = traits.contains { $0 is any PartialInputAnswer }
        self.plainSteps = ScriptRun.constantSteps(of: commands)
        self.constantStreamSteps = plainSteps.flatMap(ConstantStreamSteps.init)
        self.constantOutputSteps = plainSteps == nil ? Self.constantOutputSteps(of: commands) : nil
    }

    /// The response with each of its commands, those of its `otherwise` branches included, as
    /// `transform` reads it; its name, pattern, comment and traits unchanged.
    package func mappingCommands(_ transform: (ScriptCommand) -> ScriptCommand) -> ResponseEntry {
        ResponseEntry(self, commands: ScriptCommand.mapping(commands, transform))
    }

    private init(_ entry: ResponseEntry, commands: [ScriptCommand]) {
        self.name = entry.name
        self.pattern = entry.pattern
        self.commands = commands
        self.comment = entry.comment
        self.traits = entry.traits
        self.answersPart = entry.answersPart
        self.plainSteps = ScriptRun.constantSteps(of: commands)
        self.constantStreamSteps = plainSteps.flatMap(ConstantStreamSteps.init)
        self.constantOutputSteps = plainSteps == nil ? Self.constantOutputSteps(of: commands) : nil
    }

    /// Creates a response, compiling `pattern` (`«initial»` is the connect marker).
    ///
    /// - Throws: ``PatternError`` when the pattern does not compile.
    public init(_ name: String, pattern: String, commands: [ScriptCommand], comment: String? = nil) throws(PatternError) {
        self.init(name: name, pattern: try InputPattern(pattern), commands: commands, comment: comment)
    }
}
