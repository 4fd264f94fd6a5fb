/// A substitution a protocol adds to response text, such as FTP's `$pasv`: written `$name` or
/// `${name}` like the shared ``ScriptVariable``s, and replaced with what `value` makes of the
/// reply's ``SubstitutionContext``.
///
/// ```swift
/// let hex = ScriptProtocolVariable("hexport") { context in String(context.port, radix: 16) }
/// ```
public struct ScriptProtocolVariable: Sendable {
    /// The name after `$`: letters and digits, starting with a letter.
    public let name: String
    /// The text the variable stands for in a reply.
    public let value: @Sendable (SubstitutionContext) -> String

    /// A variable named `name` whose text `value` makes.
    public init(_ name: String, value: @escaping @Sendable (SubstitutionContext) -> String) {
        self.name = name
        self.value = value
    }
}
