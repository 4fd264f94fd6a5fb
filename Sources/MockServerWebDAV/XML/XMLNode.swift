/// A node of an XML request body, namespaces resolved: what a WebDAV property's value is kept as.
package indirect enum XMLNode: Sendable, Hashable {
    /// An element: its namespace URI (empty for none), local name, attributes without a namespace,
    /// and children.
    case element(namespace: String, name: String, attributes: [String: String], children: [XMLNode])
    /// Character data.
    case text(String)

    /// The element's namespace and name; `nil` for text.
    package var qualifiedName: (namespace: String, name: String)? {
        if case .element(let namespace, let name, _, _) = self { return (namespace, name) }
        return nil
    }

    /// The child elements (text left out).
    package var elements: [XMLNode] {
        guard case .element(_, _, _, let children) = self else { return [] }
        return children.filter { $0.qualifiedName != nil }
    }

    /// The first child element in `namespace` called `name`.
    package func child(_ namespace: String, _ name: String) -> XMLNode? {
        elements.first { $0.qualifiedName.map { $0.namespace == namespace && $0.name == name } ?? false }
    }

    /// Whether this is the element `name` in `namespace`.
    package func isElement(_ namespace: String, _ name: String) -> Bool {
        qualifiedName.map { $0.namespace == namespace && $0.name == name } ?? false
    }

    /// The node as XML text: every element declares its own namespace as the default one, so the
    /// text stands alone wherever it is put.
    package var xml: String {
        switch self {
        case .text(let text):
            return XMLNode.escaped(text)
        case .element(let namespace, let name, let attributes, let children):
            var result = "<\(name) xmlns=\"\(XMLNode.escaped(namespace, inAttribute: true))\""
            for (key, value) in attributes.sorted(by: { $0.key < $1.key }) { result += " \(key)=\"\(XMLNode.escaped(value, inAttribute: true))\"" }
            if children.isEmpty { return result + "/>" }
            return result + ">" + children.map(\.xml).joined() + "</\(name)>"
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
