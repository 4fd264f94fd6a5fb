/// Text with `${kind:name}` values from the request and the cache, as an endpoints file writes it:
/// `${param:id}`, `${query:q}`, `${form:name}`, `${json:user.name}`, `${header:Accept}`, `${cache:user}`.
package struct EndpointTemplate: Sendable, Equatable {
    /// Where a value comes from.
    package enum Source: String, Sendable, CaseIterable {
        case param, query, form, json, header, cache
    }

    package enum Segment: Sendable, Equatable {
        case literal(String)
        case value(Source, String)
    }

    package let segments: [Segment]

    /// Parses `text`; an unknown source or an unclosed `${` is an error naming it.
    package init(_ text: String) throws(TemplateProblem) {
        var segments: [Segment] = []
        var literal = ""
        var rest = text[...]
        while let start = rest.range(of: "${") {
            literal += rest[..<start.lowerBound]
            let afterStart = rest[start.upperBound...]
            guard let end = afterStart.firstIndex(of: "}") else { throw .unclosed(String(rest[start.lowerBound...].prefix(30))) }
            let inner = afterStart[..<end]
            let parts = inner.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, let source = Source(rawValue: String(parts[0])), !parts[1].isEmpty else {
                throw .unknownSource(String(inner))
            }
            if !literal.isEmpty { segments.append(.literal(literal)) }
            literal = ""
            segments.append(.value(source, String(parts[1])))
            rest = afterStart[afterStart.index(after: end)...]
        }
        literal += rest
        if !literal.isEmpty || segments.isEmpty { segments.append(.literal(literal)) }
        self.segments = segments
    }

    /// The text with each value given by `value` (an absent one is empty).
    package func render(_ value: (Source, String) -> String?) -> String {
        segments.map { segment in
            switch segment {
            case .literal(let text): text
            case .value(let source, let name): value(source, name) ?? ""
            }
        }.joined()
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
