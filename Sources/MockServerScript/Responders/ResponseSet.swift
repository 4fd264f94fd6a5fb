import MockServerCore
/// An ordered list of responses: the first one whose pattern matches an input answers it.
public struct ResponseSet: Sendable {
    /// The set's name.
    public let name: String
    /// The responses in the order they are tried.
    public let entries: [ResponseEntry]
    /// The response run when no pattern matches; without one, an unmatched input closes the connection.
    public let fallback: ResponseEntry?
    /// A note for readers of the script.
    public let comment: String?

    /// The first `«initial»` response, run when a connection opens.
    public var initial: ResponseEntry? { entries.first { $0.pattern.isInitial } }

    /// Creates a set.
    public init(name: String, entries: [ResponseEntry], fallback: ResponseEntry? = nil, comment: String? = nil) {
        self.name = name
        self.entries = entries
        self.fallback = fallback
        self.comment = comment
    }

    /// The set with each response's commands as `transform` reads them (``ResponseEntry/mappingCommands(_:)``).
    package func mappingCommands(_ transform: (ScriptCommand) -> ScriptCommand) -> ResponseSet {
        ResponseSet(name: name, entries: entries.map { $0.mappingCommands(transform) },
                    fallback: fallback?.mappingCommands(transform), comment: comment)
    }
}
