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

    /// Each method's tree, in the order first seen: a server stubs a handful of methods, so a
    /// request compares its method with theirs in turn rather than hashing it.
    private var roots: [(method: String, node: Node)] = []
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
        var node: Node
        if let root = root(stub.method) {
            node = root
        } else {
            node = Node()
            roots.append((stub.method, node))
        }
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
        if let root = root(method) ?? root(method.uppercased()) {
            collect(root, path[...], into: &found)
        }
        if found.count > 1 { found.sort { $0.sequence > $1.sequence } }
        return found
    }

    /// The tree of `method`, as stubbed.
    private func root(_ method: String) -> Node? {
        for root in roots where root.method == method { return root.node }
        return nil
    }

    /// Follows `rest`'s segments (empty ones skipped) down from `node`, read in place: every
    /// request passes here, and an array of its segments would be made only to be walked.
    private func collect(_ node: Node, _ rest: Substring, into found: inout [Stub]) {
        let bytes = rest.utf8
        guard let start = bytes.firstIndex(where: { $0 != UInt8(ascii: "/") }) else {
            // The node's own array when nothing was found before it (the common case): no copy.
            if found.isEmpty { found = node.stubs } else { found += node.stubs }
            return
        }
        let end = bytes[start...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex
        let after = rest[end...]
        if let literal = node.literals[rest[start..<end]] { collect(literal, after, into: &found) }
        if let parameter = node.parameter { collect(parameter, after, into: &found) }
    }
}
