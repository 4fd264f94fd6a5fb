/// A substitution a protocol adds to response text, such as FTP's `$pasv`: written `$name` or
/// `${name}` like the shared ``ScriptVariable``s, and replaced with what `value` makes of the
/// reply's ``SubstitutionContext``. A variable made with ``init(_:argument:)`` takes an argument
/// instead, written `${name:argument}` (HTTP's `${header:Name}`).
///
/// ```swift
/// let hex = ScriptProtocolVariable("hexport") { context in String(context.port, radix: 16) }
/// ```
public struct ScriptProtocolVariable: Sendable {
    /// How the variable's text is made.
    package enum Text: Sendable {
        /// `$name` or `${name}`: text.
        case plain(@Sendable (SubstitutionContext) -> String)
        /// `$name` or `${name}`: bytes sent as they are, which need not be UTF-8.
        case bytes(@Sendable (SubstitutionContext) -> [UInt8])
        /// `${name:argument}`: text made from the argument.
        case argument(@Sendable (String, SubstitutionContext) -> String)
    }

    /// The name after `$`: letters and digits, starting with a letter.
    public let name: String
    /// How the variable's text is made.
    package let text: Text

    /// The text the variable stands for in a reply (for a variable with an argument, its text
    /// for an empty argument).
    public var value: @Sendable (SubstitutionContext) -> String {
        switch text {
        case .plain(let value): value
        case .bytes(let bytes): { String(decoding: bytes($0), as: UTF8.self) }
        case .argument(let value): { value("", $0) }
        }
    }

    /// A variable named `name` whose text `value` makes.
    public init(_ name: String, value: @escaping @Sendable (SubstitutionContext) -> String) {
        self.name = name
        self.text = .plain(value)
    }

    /// A variable named `name`, written `${name:argument}`, whose text `value` makes of the
    /// argument (everything between the first `:` and `}`, never empty). The name is matched
    /// ignoring case when `name` is lowercase; written without an argument, the variable stays as
    /// written.
    ///
    /// ```swift
    /// let env = ScriptProtocolVariable("env", argument: { name, _ in ProcessInfo.processInfo.environment[name] ?? "" })
    /// ```
    public init(_ name: String, argument value: @escaping @Sendable (_ argument: String, SubstitutionContext) -> String) {
        self.name = name
        self.text = .argument(value)
    }

    /// A variable named `name` whose bytes `value` makes, sent as they are.
    package init(_ name: String, bytes value: @escaping @Sendable (SubstitutionContext) -> [UInt8]) {
        self.name = name
        self.text = .bytes(value)
    }
}
