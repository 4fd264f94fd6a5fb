/// The nodes of one XML document, in document order, each with the positions of its children: what
/// every ``WebDAVXMLNode`` of the document points into.
///
/// Flat on purpose: releasing a document of any depth releases one array, where a tree of nodes
/// holding their children would release itself with one nested call per level and overflow the
/// stack on a deep enough body.
final class XMLNodeStorage: Sendable {
    /// One node: what it is, and where its children are in ``entries``.
    struct Entry: Sendable {
        var kind: WebDAVXMLNode.Kind
        var children: [Int]
    }

    /// The nodes; the document's root element is the first.
    let entries: [Entry]

    init(entries: [Entry]) {
        self.entries = entries
    }
}
