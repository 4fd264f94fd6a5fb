/// A template with the match it answers, rendered when the connection sends it, so that values
/// set by earlier steps of the same response (a passive port, a selected file) are current.
public struct Rendering: Sendable, Hashable {
    /// The text with substitutions.
    public let template: Template
    /// The input `$0` stands for.
    public let input: Input
    /// Capture groups 1…n.
    public let groups: [String?]

    /// Creates a rendering.
    public init(template: Template, input: Input, groups: [String?]) {
        self.template = template
        self.input = input
        self.groups = groups
    }

    /// The bytes to send with `context`'s values.
    public func render(_ context: SubstitutionContext) -> [UInt8] {
        template.render(input: input, groups: groups, context: context)
    }

    /// The text to use as a name or an address with `context`'s values.
    public func text(_ context: SubstitutionContext) -> String {
        String(decoding: render(context), as: UTF8.self)
    }
}
