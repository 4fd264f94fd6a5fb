/// A WebDAV property's name: a namespace URI (empty for none) and a local name.
package struct WebDAVPropertyName: Sendable, Hashable, Comparable {
    package let namespace: String
    package let name: String

    package init(_ namespace: String, _ name: String) {
        self.namespace = namespace
        self.name = name
    }

    package static func < (lhs: WebDAVPropertyName, rhs: WebDAVPropertyName) -> Bool {
        (lhs.namespace, lhs.name) < (rhs.namespace, rhs.name)
    }

    /// An empty element of this name, as XML that declares its namespace.
    package var emptyElement: String { "<\(name) xmlns=\"\(WebDAVXMLNode.escaped(namespace))\"/>" }

    /// The properties the server computes; a client cannot set or remove them.
    package static let live: Set<WebDAVPropertyName> = Set(["resourcetype", "getcontentlength", "getlastmodified", "creationdate", "getetag",
                                                             "getcontenttype", "supportedlock", "lockdiscovery"].map { WebDAVPropertyName("DAV:", $0) })
}
