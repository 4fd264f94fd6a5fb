/// Where a request's candidate stubs are found without looking at every stub: a tree of path
/// segments per method (literal segments, and one branch for `:name` segments), plus the few stubs
/// with patterns, which every request tries. Finding candidates costs the path's depth, whatever the
/// number of stubs.
struct StubIndex {
    private final class Node {
        var literals: [Substring: Node] = [:]
        var parameter: Node?
        var stubs: [Stub] = []
    }

    private var roots: [String: Node] = [:]
    private var patterns: [Stub] = []

    /// Files `stub` under its method and path.
    mutating func insert(_ stub: Stub) {
        let segments: [Substring?]
        switch stub.target {
        case .pattern:
            patterns.append(stub)
            return
        case .exact(let path, _):
            segments = path.split(separator: "/", omittingEmptySubsequences: true).map { Optional($0) }
        case .template(let parts):
            segments = parts.map { part in
                if case .literal(let text) = part { text[...] } else { nil }
            }
        }
        let root = roots[stub.method] ?? Node()
        roots[stub.method] = root
        var node = root
        for segment in segments {
            if let segment {
                let next = node.literals[segment] ?? Node()
                node.literals[segment] = next
                node = next
            } else {
                let next = node.parameter ?? Node()
                node.parameter = next
                node = next
            }
        }
        node.stubs.append(stub)
    }

    /// The stubs that may match a request for `method` and `path`, the most recently added first.
    func candidates(method: String, path: String) -> [Stub] {
        var found = patterns
        if let root = roots[method] ?? roots[method.uppercased()] {
            let segments = path.split(separator: "/", omittingEmptySubsequences: true)
            collect(root, segments[...], into: &found)
        }
        if found.count > 1 { found.sort { $0.sequence > $1.sequence } }
        return found
    }

    private func collect(_ node: Node, _ segments: ArraySlice<Substring>, into found: inout [Stub]) {
        guard let first = segments.first else {
            found += node.stubs
            return
        }
        let rest = segments.dropFirst()
        if let literal = node.literals[first] { collect(literal, rest, into: &found) }
        if let parameter = node.parameter { collect(parameter, rest, into: &found) }
    }
}
