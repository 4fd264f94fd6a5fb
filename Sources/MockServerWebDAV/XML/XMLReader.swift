import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads an XML request body into ``XMLNode``s with namespaces resolved (Foundation's `XMLParser`),
/// or says why it is not well-formed.
package enum XMLReader {
    /// Why a body is not XML.
    package struct Failure: Error, Sendable, Equatable {
        /// The parser's account, with line and column.
        package let message: String
    }

    /// The root element of `bytes`.
    package static func parse(_ bytes: [UInt8]) throws(Failure) -> XMLNode {
        if let problem = hazard(bytes) { throw Failure(message: problem) }
        let builder = TreeBuilder()
        let parser = XMLParser(data: Data(bytes))
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        let parsed = parser.parse()
        if let failure = builder.failure { throw failure }
        guard parsed, let root = builder.root else {
            let error = parser.parserError.map { "\($0.localizedDescription)" } ?? "not well-formed"
            throw Failure(message: "line \(parser.lineNumber), column \(parser.columnNumber): \(error)")
        }
        return root
    }

    /// The parser's delegate: a stack of open elements. Used by one parse on one thread.
    private final class TreeBuilder: NSObject, XMLParserDelegate {
        private var stack: [(namespace: String, name: String, attributes: [String: String], children: [XMLNode])] = []
        var root: XMLNode?
        var failure: Failure?

        func parser(_ parser: XMLParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String) {
            // Namespaces in XML 1.0: a prefix may not be bound to the empty name.
            if !prefix.isEmpty && namespaceURI.isEmpty {
                failure = Failure(message: "line \(parser.lineNumber): the prefix \"\(prefix)\" is declared with an empty namespace name")
                parser.abortParsing()
            }
        }

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            // A prefixed name must be bound to a namespace (Namespaces in XML 1.0 §5): `xmlns:p=""`
            // or no declaration at all leaves it without one.
            if let qualifiedName, qualifiedName.contains(":"), (namespaceURI ?? "").isEmpty {
                failure = Failure(message: "line \(parser.lineNumber): the prefix of <\(qualifiedName)> is not bound to a namespace")
                parser.abortParsing()
                return
            }
            // Namespaces in XML 1.0 §3: a local name has no colon (`<p:a:b>` was read as `a:b` in p's
            // namespace, and written back as a prefix bound to nothing).
            if elementName.contains(":") {
                failure = Failure(message: "line \(parser.lineNumber): the name <\(qualifiedName ?? elementName)> has more than one colon")
                parser.abortParsing()
                return
            }
            let plain = attributes.filter { !$0.key.contains(":") && $0.key != "xmlns" }
            stack.append((namespaceURI ?? "", elementName, plain, []))
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            guard let open = stack.popLast() else { return }
            let node = XMLNode.element(namespace: open.namespace, name: open.name, attributes: open.attributes, children: open.children)
            if stack.isEmpty { root = node } else { stack[stack.count - 1].children.append(node) }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard !stack.isEmpty else { return }
            if case .text(let previous)? = stack[stack.count - 1].children.last {
                stack[stack.count - 1].children[stack[stack.count - 1].children.count - 1] = .text(previous + string)
            } else {
                stack[stack.count - 1].children.append(.text(string))
            }
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            self.parser(parser, foundCharacters: String(decoding: CDATABlock, as: UTF8.self))
        }
    }
}
