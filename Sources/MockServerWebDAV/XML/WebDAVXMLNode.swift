/// A node of an XML request body, namespaces resolved: what a WebDAV property's value is read from.
///
/// A node is a position in its document's flat storage, so that no walk over it and no release of
/// it recurses once per level: ``xml`` renders with a stack of its own. `package`: the fuzz
/// package's targets compile under this package's name. (Not `XMLNode`: Foundation has one on macOS.)
package struct WebDAVXMLNode: Sendable {
    /// What a node is.
    package enum Kind: Sendable, Equatable {
        /// An element: its namespace URI (empty for none), local name, and attributes without a
        /// namespace.
        case element(namespace: String, name: String, attributes: [String: String])
        /// Character data.
        case text(String)
    }

    let storage: XMLNodeStorage
    let index: Int

    init(storage: XMLNodeStorage, index: Int) {
        self.storage = storage
        self.index = index
    }

    /// Whether the node is an element or text, with its name or characters.
    package var kind: Kind { storage.entries[index].kind }

    /// The node's children, text included, in document order (none for text).
    package var children: [WebDAVXMLNode] { storage.entries[index].children.map { WebDAVXMLNode(storage: storage, index: $0) } }

    /// The element's namespace and name; `nil` for text.
    package var qualifiedName: (namespace: String, name: String)? {
        if case .element(let namespace, let name, _) = kind { return (namespace, name) }
        return nil
    }

    /// The child elements (text left out).
    package var elements: [WebDAVXMLNode] { children.filter { $0.qualifiedName != nil } }

    /// The first child element in `namespace` called `name`.
    package func child(_ namespace: String, _ name: String) -> WebDAVXMLNode? {
        elements.first { $0.isElement(namespace, name) }
    }

    /// Whether this is the element `name` in `namespace`.
    package func isElement(_ namespace: String, _ name: String) -> Bool {
        qualifiedName.map { $0.namespace == namespace && $0.name == name } ?? false
    }

    /// How many elements deep the node goes: 1 for an element without child elements, 0 for text.
    /// Counted without recursion.
    package var depth: Int {
        var deepest = 0
        var pending = [(index, 1)]
        while let (position, level) = pending.popLast() {
            guard case .element = storage.entries[position].kind else { continue }
            deepest = max(deepest, level)
            pending += storage.entries[position].children.map { ($0, level + 1) }
        }
        return deepest
    }

    /// The node as XML text: every element declares its own namespace as the default one, so the
    /// text stands alone wherever it is put. Rendered with a stack of its own, never recursively.
    package var xml: String {
        var result = ""
        Self.render([index], in: storage, into: &result)
        return result
    }

    /// The node's children as XML text (what a dead property keeps as its value).
    package var childrenXML: String {
        var result = ""
        Self.render(storage.entries[index].children, in: storage, into: &result)
        return result
    }

    /// What is left to write: a node, or the end tag of an element whose children are written.
    private enum Step {
        case node(Int)
        case endTag(String)
    }

    private static func render(_ nodes: [Int], in storage: XMLNodeStorage, into result: inout String) {
        var steps = nodes.reversed().map(Step.node)
        while let step = steps.popLast() {
            switch step {
            case .endTag(let name):
                result += "</\(name)>"
            case .node(let position):
                let entry = storage.entries[position]
                switch entry.kind {
                case .text(let text):
                    result += escaped(text)
                case .element(let namespace, let name, let attributes):
                    result += "<\(name) xmlns=\"\(escaped(namespace, inAttribute: true))\""
                    for (key, value) in attributes.sorted(by: { $0.key < $1.key }) { result += " \(key)=\"\(escaped(value, inAttribute: true))\"" }
                    if entry.children.isEmpty {
                        result += "/>"
                    } else {
                        result += ">"
                        steps.append(.endTag(name))
                        steps += entry.children.reversed().map(Step.node)
                    }
                }
            }
        }
    }

    /// `text` with `&`, `<`, `>`, `"` and carriage returns escaped (a reader turns a raw CR into a
    /// line feed); in an attribute's value, tabs and line feeds too (a reader turns them into spaces).
    /// A value read from `&#13;` or `&#9;` is then written so that it reads back the same.
    package static func escaped(_ text: String, inAttribute: Bool = false) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\r": result += "&#13;"
            case "\t" where inAttribute: result += "&#9;"
            case "\n" where inAttribute: result += "&#10;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
