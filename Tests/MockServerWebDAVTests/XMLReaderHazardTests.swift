import Testing
import MockServerWebDAV

/// The XML reader on bodies a client can send: what Foundation's parser cannot take is refused first.
@Suite("WebDAV XML reader: bodies that are not UTF-8")
struct XMLReaderHazardTests {
    private static let bad: [UInt8] = [0xCA, 0xCA]

    /// `before`, two bytes that are not UTF-8, then `after`.
    private static func body(_ before: String, _ after: String) -> [UInt8] { Array(before.utf8) + bad + Array(after.utf8) }

    @Test("a body that is not UTF-8 (nor UTF-16) is refused with the offset, whatever it declares, not handed to the parser (which trapped on a name)", arguments: [
        ("<", "/>"), ("<a ", "=\"1\"/>"), ("<a>", "</a>"), ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><", "/>"),
        ("<?xml version=\"1.0\" encoding=\"iso-8859-\u{C3}\"?><a>", "</a>"), ("<?xml\u{D9} encoding=\"iso-8859-1\"?><a>", "</a>"),
        ("<?xml version=\"1.0\" encoding=\"iso-8859-1\"?><", "/>"), ("<?xml version=\"1.0$\" encoding=\"iso-8859-1\"?><", "/>"),
    ])
    func notUTF8(before: String, after: String) {
        #expect(throws: XMLReader.Failure.malformed("the XML body is not UTF-8: byte 0xca at offset \(before.utf8.count) (this server reads UTF-8 and UTF-16)")) {
            try XMLReader.parse(Self.body(before, after))
        }
    }

    @Test("a name with two colons is refused (it was read, then written back with an unbound prefix)")
    func twoColons() {
        #expect(throws: XMLReader.Failure.malformed("line 1: the name <p:b:c> has more than one colon")) {
            try XMLReader.parse(Array("<a xmlns:p=\"urn:p\"><p:b:c/></a>".utf8))
        }
    }

    @Test("a processing instruction without data is refused (Foundation's parser read a null pointer on it); one with data is read")
    func processingInstructions() throws {
        #expect(throws: XMLReader.Failure.malformed("the processing instruction <?pi?> has no data, which this server's XML parser cannot take")) {
            try XMLReader.parse(Array("<a><?pi?></a>".utf8))
        }
        #expect(try XMLReader.parse(Array("<?xml version=\"1.0\"?><a><?pi x?><?pi ?></a>".utf8)).qualifiedName?.name == "a")
    }

    @Test("a document type declaration is refused before the parser expands or declares anything", arguments: [
        #"<!DOCTYPE a [<!ENTITY e "&#60;?p?&#62;">]><a xmlns="DAV:">&e;</a>"#,
        "<!DOCTYPE a [<!ATTLIST a b CDATA #IMPLIED>]><a/>",
        #"<?xml version="1.0"?><!DOCTYPE a [<!NOTATION n SYSTEM "x">]><a/>"#,
    ])
    func doctype(body: String) {
        #expect(throws: XMLReader.Failure.malformed("the XML body has a document type declaration (<!DOCTYPE): a WebDAV body has none, and this server reads none")) {
            try XMLReader.parse(Array(body.utf8))
        }
    }

    @Test("NUL bytes without a byte-order mark, and UTF-16 that is not, are refused")
    func notUTF16() {
        #expect(throws: XMLReader.Failure.malformed("the XML body holds a NUL byte at offset 1 (this server reads UTF-8, and UTF-16 with its byte-order mark)")) {
            try XMLReader.parse([0x3C, 0x00, 0x61, 0x00, 0x2F, 0x00, 0x3E, 0x00])
        }
        // A lone high surrogate after the mark.
        #expect(throws: XMLReader.Failure.malformed("the XML body is not UTF-16 although it begins with a UTF-16 byte-order mark")) {
            try XMLReader.parse([0xFF, 0xFE, 0x3C, 0x00, 0x00, 0xD8, 0x2F, 0x00, 0x3E, 0x00])
        }
    }

    @Test("a namespace name that is not an absolute URI is read, and its XML reads again (libxml2 only warns; FuzzWebDAVXML found the XML written back refused)", arguments: [
        #"<D:propfind xmlns:D="DA/*:"><D:altprop/></D:propfind>"#, #"<propfind xmlns="a/b"><altprop/></propfind>"#, #"<a xmlns="*:"/>"#,
    ])
    func relativeNamespace(body: String) throws {
        let root = try XMLReader.parse(Array(body.utf8))
        #expect(try XMLReader.parse(Array(root.xml.utf8)).xml == root.xml)
    }

    @Test("a body in UTF-16 is read")
    func utf16() throws {
        let utf16 = try XMLReader.parse([0xFF, 0xFE] + Array("<é/>".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        #expect(utf16.qualifiedName?.name == "é")
    }
}
