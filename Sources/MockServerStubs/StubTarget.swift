import MockServerCore
import MockServerHTTP
import MockServerScript

/// Which request targets a stub answers: one path (any query, unless the stub gives one), a path
/// template with `:name` segments, or a pattern over the whole target.
package enum StubTarget: Sendable {
    case exact(path: String, query: String?)
    case template([Segment])
    case pattern(InputPattern)

    /// One segment of a template.
    package enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    /// A path, a full URL (`http://host/path?query`: its path and query are used) or a template.
    package init(_ url: String) {
        var text = AbsoluteURI.pathOnward(of: url[...])
        if !text.hasPrefix("/") { text = "/" + text }
        let path: Substring
        let query: String?
        if let mark = text.firstIndex(of: "?") {
            path = text[..<mark]
            query = String(text[text.index(after: mark)...])
        } else {
            path = text
            query = nil
        }
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        if query == nil, segments.contains(where: { $0.hasPrefix(":") && $0.count > 1 }) {
            self = .template(segments.map { $0.hasPrefix(":") && $0.count > 1 ? .parameter(String($0.dropFirst())) : .literal(String($0)) })
        } else {
            self = .exact(path: String(path), query: query)
        }
    }

    /// The path of an exact target (what names a gRPC method: `/pkg.Service/Method`), else `nil`.
    var grpcPath: String? {
        if case .exact(let path, nil) = self { path } else { nil }
    }

    /// The path parameters when `request`'s target matches, or `nil`.
    func match(_ request: HTTPMockRequest) -> Stub.Parameters? {
        switch self {
        case .exact(let path, let query):
            guard request.path == path else { return nil }
            if let query, request.query != query { return nil }
            return Stub.Parameters()
        case .template(let segments):
            let parts = request.path.split(separator: "/", omittingEmptySubsequences: true)
            guard parts.count == segments.count else { return nil }
            var values: [String: [String]] = [:]
            for (segment, part) in zip(segments, parts) {
                switch segment {
                case .literal(let literal): if literal != part { return nil }
                case .parameter(let name): values[name] = [PercentCoding.decodedText(part)]
                }
            }
            return Stub.Parameters(values)
        case .pattern(let pattern):
            return pattern.match(InputUnit(request.target)) == nil ? nil : Stub.Parameters()
        }
    }

    /// How the target is written in a stub: `/dogs.json`, `/config/:version`, a pattern.
    var description: String {
        switch self {
        case .exact(let path, let query): path + (query.map { "?" + $0 } ?? "")
        case .template(let segments):
            "/" + segments.map { segment in
                switch segment {
                case .literal(let text): text
                case .parameter(let name): ":" + name
                }
            }.joined(separator: "/")
        case .pattern(let pattern): "matching: \(pattern.source)"
        }
    }
}
