import MockServerCore
/// A template, or an HTTP response template, with the match it answers, rendered when the
/// connection sends it, so that values set by earlier steps of the same response (a passive port, a
/// selected file) are current.
public struct Rendering: Sendable, Hashable {
    /// What is rendered.
    public enum Content: Sendable, Hashable {
        /// Text with substitutions.
        case text(ResponseTemplate)
        /// An HTTP response with a computed Content-Length.
        case response(HTTPResponseTemplate)
    }

    /// What is rendered.
    public let content: Content
    /// The input `$0` stands for.
    public let input: InputUnit
    /// Capture groups 1…n.
    public let groups: [String?]

    /// Creates a rendering of text.
    public init(template: ResponseTemplate, input: InputUnit, groups: [String?]) {
        self.init(content: .text(template), input: input, groups: groups)
    }

    /// Creates a rendering.
    public init(content: Content, input: InputUnit, groups: [String?]) {
        self.content = content
        self.input = input
        self.groups = groups
    }

    /// The bytes to send with `context`'s values.
    public func render(_ context: SubstitutionContext) -> [UInt8] {
        switch content {
        case .text(let template): template.render(input: input, groups: groups, context: context)
        case .response(let response): response.render(input: input, groups: groups, context: context)
        }
    }

    /// The text to use as a name or an address with `context`'s values.
    public func text(_ context: SubstitutionContext) -> String {
        String(decoding: render(context), as: UTF8.self)
    }
}
