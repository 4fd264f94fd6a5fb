import Foundation
import Testing
import TestSupport
@testable import MockServerWebDAV

/// The XML reader on its own: bytes in, a flat document or a refusal out.
@Suite("XML reader", .cpuBound)
struct XMLReaderTests {
    /// `levels` nested `<D:prop>` elements, the outermost declaring the DAV: prefix.
    static func nested(_ levels: Int) -> [UInt8] {
        Array(("<D:prop xmlns:D=\"DAV:\">" + String(repeating: "<D:prop>", count: levels - 1)
            + String(repeating: "</D:prop>", count: levels)).utf8)
    }

    @Test("namespaces resolved, attributes without a prefix kept, adjacent text and CDATA joined, rendered back as XML")
    func document() throws {
        let root = try XMLReader.parse(Array(#"<?xml version="1.0"?><D:a xmlns:D="DAV:" xmlns:Z="urn:z" k="v" Z:q="x">one &amp; <![CDATA[<two>]]><Z:b/>end</D:a>"#.utf8))
        #expect(root.kind == .element(namespace: "DAV:", name: "a", attributes: ["k": "v"]))
        #expect(root.children.map(\.kind) == [.text("one & <two>"), .element(namespace: "urn:z", name: "b", attributes: [:]), .text("end")])
        #expect(root.elements.count == 1 && root.child("urn:z", "b") != nil && root.child("DAV:", "b") == nil)
        #expect(root.xml == #"<a xmlns="DAV:" k="v">one &amp; &lt;two&gt;<b xmlns="urn:z"/>end</a>"#)
        #expect(root.childrenXML == #"one &amp; &lt;two&gt;<b xmlns="urn:z"/>end"#)
        #expect(try XMLReader.parse(Array(root.xml.utf8)).xml == root.xml)
        #expect(root.depth == 2 && root.children[0].depth == 0)
    }

    @Test("not well-formed, or a prefix left unbound: malformed, with where")
    func malformed() {
        for bad in ["", "<a>", "<a></b>", "text", #"<p:a xmlns:p=""/>"#, "<p:a/>", "<a/><b/>"] {
            do {
                _ = try XMLReader.parse(Array(bad.utf8))
                Issue.record("\(bad) was read")
            } catch {
                guard case .malformed(let account) = error else { Issue.record("\(bad): \(error)"); continue }
                #expect(account.contains("line"), "\(account)")
            }
        }
    }

    @Test("a body that is not UTF-8 is refused naming the byte and its offset, before the parser reads a name from it (it trapped on <D:\\xff/>)", arguments: [
        ([0xFF], "byte 0xff at offset"),
        (Array("<?xml version='1.0'?><D:propfind xmlns:D='DAV:'><D:prop><D:".utf8) + [0xFF] + Array("/></D:prop></D:propfind>".utf8), "byte 0xff at offset 59"),
        (Array("<a b='".utf8) + [0xC0, 0xAF] + Array("'/>".utf8), "byte 0xc0 at offset 6"),
        (Array("<a>".utf8) + [0xED, 0xA0, 0x80] + Array("</a>".utf8), "byte 0xed at offset 3"),
        (Array("<a>é".utf8) + [0xE2, 0x82] + Array("</a>".utf8), "byte 0xe2 at offset 5"),
    ] as [([UInt8], String)])
    func notUTF8(bytes: [UInt8], problem: String) {
        #expect {
            _ = try XMLReader.parse(bytes)
        } throws: { error in
            guard case XMLReader.Failure.malformed(let account) = error else { return false }
            return account.hasPrefix("the XML body is not UTF-8: ") && account.contains(problem)
        }
    }

    @Test("nesting: 256 elements deep parses; 257, 300 and 100,000 are refused naming the limit", arguments: [256, 257, 300, 100_000])
    func nesting(levels: Int) throws {
        do {
            let root = try XMLReader.parse(Self.nested(levels))
            #expect(levels <= XMLReader.maximumDepth && root.depth == levels)
            #expect(root.xml.components(separatedBy: "<prop ").count - 1 == levels)
        } catch {
            #expect(levels > XMLReader.maximumDepth && error == .tooDeep(line: 1))
            #expect(error.message == "XML nesting deeper than the limit of 256 elements (line 1)")
        }
    }

    @Test("a document 100,000 elements deep is walked, rendered and released without recursion")
    func deepStorage() {
        // Deeper than any body may nest (a body this deep overflowed the stack when the tree was an
        // indirect enum): made directly, to show the storage itself holds no recursion.
        let levels = 100_000
        var entries = (0..<levels).map { XMLNodeStorage.Entry(kind: .element(namespace: "urn:x", name: "e", attributes: [:]), children: [$0 + 1]) }
        entries[levels - 1].children = []
        var node: WebDAVXMLNode? = WebDAVXMLNode(storage: XMLNodeStorage(entries: entries), index: 0)
        entries = []
        #expect(node?.depth == levels)
        #expect(node?.xml.utf8.count == levels * (#"<e xmlns="urn:x">"#.utf8.count + "</e>".utf8.count) - "></e>".utf8.count + "/>".utf8.count)
        // Released here: a tree whose nodes held their children would overflow the stack.
        node = nil
    }
}
