/// Where a request's candidate stubs are found without looking at every stub: a tree of path
/// segments per method (literal segments, and one branch for `:name` segments), plus the few stubs
/// with patterns, which every request tries. Finding candidates costs the path's depth, whatever the
/// number of stubs.
struct StubIndex {
    /// A node's fields are `@exclusivity(unchecked)`: the index is read and changed only under the
    /// router's lock, so the run-time check of each access (a thread-local access set, about 80
    /// instructions each, four a request) guards nothing.
    private final class Node {
        /// The literal segments below this one, in the order added, searched in turn while they
        /// are few (``fewLiterals``): hashing a request's segment costs more than a few compares.
        @exclusivity(unchecked) var literals: [(segment: Substring, node: Node)] = []
        /// The same, by segment, once there are more than ``fewLiterals``.
        @exclusivity(unchecked) var literalIndex: [Substring: Node]?
        @exclusivity(unchecked) var parameter: Node?
        @exclusivity(unchecked) var stubs: [Stub] = []

        /// How many literal segments are searched in turn before an index is kept.
        static let fewLiterals = 8

        /// The node below this one for the literal `segment`.
        func literal(_ segment: Substring) -> Node? {
            if let literalIndex { return literalIndex[segment] }
            for literal in literals where literal.segment == segment { return literal.node }
            return nil
        }

        /// The node below this one for `segment`, added when there is none.
        func addingLiteral(_ segment: Substring) -> Node {
            if let found = literal(segment) { return found }
            let node = Node()
            literals.append((segment, node))
            if literalIndex != nil {
                literalIndex?[segment] = node
            } else if literals.count > Self.fewLiterals {
                literalIndex = Dictionary(uniqueKeysWithValues: literals.map { ($0.segment, $0.node) })
            }
            return node
        }
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
                node = node.addingLiteral(segment)
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
        if let literal = node.literal(rest[start..<end]) { collect(literal, after, into: &found) }
        if let parameter = node.parameter { collect(parameter, after, into: &found) }
    }
}
