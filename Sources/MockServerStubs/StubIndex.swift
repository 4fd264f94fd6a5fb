/// Where a request's candidate stubs are found without looking at every stub: a tree of path
/// segments per method (literal segments, and one branch for `:name` segments), plus the few stubs
/// with patterns, which every request tries. Finding candidates costs the path's depth, whatever the
/// number of stubs.
struct StubIndex {
    /// A node of the trees, kept by value in ``nodes`` and naming its children by their index
    /// there: the index is a value read and changed under the router's lock, so no access to it
    /// needs a run-time exclusivity check (a class's fields did, about 80 instructions each, four a
    /// request, which `@exclusivity(unchecked)` skipped until session 28).
    private struct Node {
        /// The literal segments below this one, in the order added, searched in turn while they
        /// are few (``fewLiterals``): hashing a request's segment costs more than a few compares.
        var literals: [(segment: Substring, node: Int)] = []
        /// The same, by segment, once there are more than ``fewLiterals``.
        var literalIndex: [Substring: Int]?
        var parameter: Int?
        var stubs: [Stub] = []

        /// How many literal segments are searched in turn before an index is kept.
        static let fewLiterals = 8

        /// The node below this one for the literal `segment`.
        func literal(_ segment: Substring) -> Int? {
            if let literalIndex { return literalIndex[segment] }
            for literal in literals where literal.segment == segment { return literal.node }
            return nil
        }
    }

    /// Every node of every tree; a node's children are indices into it.
    private var nodes: [Node] = []

    /// Each method's tree, in the order first seen: a server stubs a handful of methods, so a
    /// request compares its method with theirs in turn rather than hashing it.
    private var roots: [(method: String, node: Int)] = []
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
        var node: Int
        if let root = root(stub.method) {
            node = root
        } else {
            node = newNode()
            roots.append((stub.method, node))
        }
        for segment in segments {
            if let segment {
                node = addingLiteral(segment, below: node)
            } else if let parameter = nodes[node].parameter {
                node = parameter
            } else {
                let next = newNode()
                nodes[node].parameter = next
                node = next
            }
        }
        nodes[node].stubs.append(stub)
    }

    /// A new empty node's index.
    private mutating func newNode() -> Int {
        nodes.append(Node())
        return nodes.count - 1
    }

    /// The node below `parent` for the literal `segment`, added when there is none.
    private mutating func addingLiteral(_ segment: Substring, below parent: Int) -> Int {
        if let found = nodes[parent].literal(segment) { return found }
        let node = newNode()
        nodes[parent].literals.append((segment, node))
        if nodes[parent].literalIndex != nil {
            nodes[parent].literalIndex?[segment] = node
        } else if nodes[parent].literals.count > Node.fewLiterals {
            nodes[parent].literalIndex = Dictionary(uniqueKeysWithValues: nodes[parent].literals.map { ($0.segment, $0.node) })
        }
        return node
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
    private func root(_ method: String) -> Int? {
        for root in roots where root.method == method { return root.node }
        return nil
    }

    /// Follows `rest`'s segments (empty ones skipped) down from `node`, read in place: every
    /// request passes here, and an array of its segments would be made only to be walked.
    private func collect(_ node: Int, _ rest: Substring, into found: inout [Stub]) {
        let bytes = rest.utf8
        guard let start = bytes.firstIndex(where: { $0 != UInt8(ascii: "/") }) else {
            // The node's own array when nothing was found before it (the common case): no copy.
            if found.isEmpty { found = nodes[node].stubs } else { found += nodes[node].stubs }
            return
        }
        let end = bytes[start...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex
        let after = rest[end...]
        if let literal = nodes[node].literal(rest[start..<end]) { collect(literal, after, into: &found) }
        if let parameter = nodes[node].parameter { collect(parameter, after, into: &found) }
    }
}
