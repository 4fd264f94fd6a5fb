import Testing
import MockServerWebDAV

/// A property value's XML text, as PROPFIND gives a dead property back: it must read as what was set.
@Suite("WebDAV XML: a value's text reads back as itself")
struct WebDAVXMLNodeTests {
    @Test("carriage returns in text, and tabs, line feeds and carriage returns in attributes, are written as references", arguments: [
        "<a>x&#13;y</a>",
        "<a>x&#13;&#10;y\r\nz</a>",
        "<a b=\"1&#9;2&#10;3&#13;4\"/>",
        "<a xmlns=\"urn:x\" b=\"&#13;\">&lt;&amp;&#13;&gt;</a>",
    ])
    func roundTrip(text: String) throws {
        let read = try XMLReader.parse(Array(text.utf8))
        let again = try XMLReader.parse(Array(read.xml.utf8))
        // A value written raw would read back changed (a CR as LF, a tab in an attribute as a
        // space), and so be written differently the second time.
        #expect(again.kind == read.kind && again.children.map(\.kind) == read.children.map(\.kind) && again.xml == read.xml,
                "\(read.xml) reads back as \(again.xml)")
    }

    @Test("line feeds in text stay as they are")
    func lineFeeds() throws {
        let read = try XMLReader.parse(Array("<a>x\ny</a>".utf8))
        #expect(read.xml == "<a xmlns=\"\">x\ny</a>")
    }
}
