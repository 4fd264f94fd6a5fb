import MockServerScript

/// Text with `${kind:name}` values from the request and the cache, as an endpoints file writes it:
/// `${param:id}`, `${query:q}`, `${form:name}`, `${json:user.name}`, `${header:Accept}`, `${cache:user}`.
package struct EndpointTemplate: Sendable, Equatable {
    /// Where a value comes from.
    package enum Source: String, Sendable, CaseIterable {
        case param, query, form, json, header, cache
    }

    /// The text, parsed (and rendered) by the script engine's one substitution engine in its
    /// arguments-only syntax: `${source:name}` is a value, every other byte literal text.
    package let template: ResponseTemplate

    /// Parses `text`; an unknown source or an unclosed `${` is an error naming it.
    package init(_ text: String) throws(TemplateProblem) {
        do {
            template = try ResponseTemplate(arguments: text, names: Self.sources)
        } catch {
            switch error {
            case .unclosed(let text): throw .unclosed(text)
            case .unknown(let inner): throw .unknownSource(inner)
            }
        }
    }

    private static let sources = Set(Source.allCases.map(\.rawValue))

    /// Whether the text has no `${…}` value: it renders the same for every request.
    package var isConstant: Bool { template.constantBytes != nil }

    /// The text with each value given by `value` (an absent one is empty).
    package func render(_ value: (Source, String) -> String?) -> String {
        template.render { name, argument in Source(rawValue: name).flatMap { value($0, argument) } ?? "" }
    }

    /// What is wrong with a template's text.
    package enum TemplateProblem: Error, Sendable {
        case unclosed(String)
        case unknownSource(String)

        package var reason: String {
            switch self {
            case .unclosed(let text): "\"\(text)\" has no closing }"
            case .unknownSource(let inner):
                "${\(inner)} is not one of \(Source.allCases.map { "${\($0.rawValue):NAME}" }.joined(separator: ", "))"
            }
        }
    }
}
