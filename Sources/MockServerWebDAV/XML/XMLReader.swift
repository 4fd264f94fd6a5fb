import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads an XML request body into ``WebDAVXMLNode``s with namespaces resolved (Foundation's `XMLParser`),
/// or says why it is not well-formed or nests too deep.
///
/// ``parse(_:)`` is pure (bytes in, a document or a thrown ``Failure`` out) and the fuzz package's
/// entry point (its targets compile under this package's name, so `package` reaches them). Nothing in it recurses once per element:
/// the parser's callbacks keep a stack of open elements, the document is stored flat.
package enum XMLReader {
    /// The deepest nesting of elements a body may have: 256, the root counting as one. A deeper
    /// body is refused (``Failure/tooDeep(line:)``) as soon as its 257th open element is read.
    package static let maximumDepth = 256

    /// Why a body is refused.
    package enum Failure: Error, Sendable, Equatable {
        /// Not well-formed XML (or a namespace prefix left unbound): the parser's account, with
        /// line and column.
        case malformed(String)
        /// Elements nested deeper than ``maximumDepth``; `line` is where the first one too deep opens.
        case tooDeep(line: Int)

        /// The refusal in words, naming the limit when it is one.
        package var message: String {
            switch self {
            case .malformed(let account): account
            case .tooDeep(let line): "XML nesting deeper than the limit of \(XMLReader.maximumDepth) elements (line \(line))"
            }
        }
    }

    /// The root element of `bytes`.
    ///
    /// - Throws: ``Failure/malformed(_:)`` for a body that is not well-formed XML,
    ///   ``Failure/tooDeep(line:)`` for one that nests elements deeper than ``maximumDepth``.
    package static func parse(_ bytes: [UInt8]) throws(Failure) -> WebDAVXMLNode {
        // Foundation's parser traps on a name that is not UTF-8 and on a processing instruction
        // without data: such a body never reaches it (``hazard(_:)``).
        if let problem = hazard(bytes) { throw .malformed(problem) }
        let builder = TreeBuilder()
        let parser = XMLParser(data: Data(bytes))
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        let parsed = parser.parse()
        if let failure = builder.failure { throw failure }
        // Linux's parser can report success and still keep an error (content after the root
        // element); libxml2's warnings about a namespace name that is not an absolute URI (99, 100:
        // `xmlns="a/b"`) are kept the same way, and are only warnings: the document reads.
        let error = parser.parserError.flatMap { error in Self.namespaceWarnings.contains((error as NSError).code) ? nil : error }
        guard parsed, error == nil, builder.isComplete else {
            let account = error.map { "\($0.localizedDescription)" } ?? "not well-formed"
            throw .malformed("line \(parser.lineNumber), column \(parser.columnNumber): \(account)")
        }
        return WebDAVXMLNode(storage: XMLNodeStorage(entries: builder.entries), index: 0)
    }

    /// The codes of libxml2's warnings about namespace names (`XML_WAR_NS_URI`,
    /// `XML_WAR_NS_URI_RELATIVE`) that Foundation keeps as its parser's error.
    private static let namespaceWarnings: Set<Int> = [99, 100]

    /// The parser's delegate: the document's nodes so far and a stack of the open elements'
    /// positions. Used by one parse on one thread.
    private final class TreeBuilder: NSObject, XMLParserDelegate {
        var entries: [XMLNodeStorage.Entry] = []
        private var open: [Int] = []
        var failure: Failure?

        /// Whether a root element was read and closed.
        var isComplete: Bool { !entries.isEmpty && open.isEmpty }

        func parser(_ parser: XMLParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String) {
            // Namespaces in XML 1.0: a prefix may not be bound to the empty name.
            if !prefix.isEmpty && namespaceURI.isEmpty {
                fail(.malformed("line \(parser.lineNumber): the prefix \"\(prefix)\" is declared with an empty namespace name"), parser)
            }
        }

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            guard failure == nil else { return }
            guard open.count < XMLReader.maximumDepth else { return fail(.tooDeep(line: parser.lineNumber), parser) }
            guard !open.isEmpty || entries.isEmpty else {
                return fail(.malformed("line \(parser.lineNumber): a second root element, <\(qualifiedName ?? elementName)>"), parser)
            }
            // A prefixed name must be bound to a namespace (Namespaces in XML 1.0 §5): `xmlns:p=""`
            // or no declaration at all leaves it without one.
            if let qualifiedName, qualifiedName.contains(":"), (namespaceURI ?? "").isEmpty {
                return fail(.malformed("line \(parser.lineNumber): the prefix of <\(qualifiedName)> is not bound to a namespace"), parser)
            }
            // Namespaces in XML 1.0 §3: a local name has no colon (`<p:a:b>` was read as `a:b` in p's
            // namespace, and written back as a prefix bound to nothing).
            if elementName.contains(":") {
                return fail(.malformed("line \(parser.lineNumber): the name <\(qualifiedName ?? elementName)> has more than one colon"), parser)
            }
            let plain = attributes.filter { !$0.key.contains(":") && $0.key != "xmlns" }
            let position = entries.count
            entries.append(.init(kind: .element(namespace: namespaceURI ?? "", name: elementName, attributes: plain), children: []))
            if let parent = open.last { entries[parent].children.append(position) }
            open.append(position)
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            guard failure == nil else { return }
            _ = open.popLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard failure == nil, let parent = open.last else { return }
            // Adjacent character data (split by the parser, or by CDATA) is one text node.
            if let last = entries[parent].children.last, last == entries.count - 1, case .text(var text) = entries[last].kind {
                entries[last].kind = .text("")
                text += string
                entries[last].kind = .text(text)
            } else {
                entries[parent].children.append(entries.count)
                entries.append(.init(kind: .text(string), children: []))
            }
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            self.parser(parser, foundCharacters: String(decoding: CDATABlock, as: UTF8.self))
        }

        /// Keeps the first failure and stops the parser.
        private func fail(_ reason: Failure, _ parser: XMLParser) {
            if failure == nil { failure = reason }
            parser.abortParsing()
        }
    }
}
