import Testing
import MockServerHTTP

/// The literal table both HTTP parsers give their common texts from: a literal only for bytes that
/// are exactly one, anything else decoded.
@Suite("HTTP: the parsers' literal table")
struct HTTPLiteralTableTests {
    private let table = HTTPLiteralTable(["Host", "Content-Length", "ETag"], lowerCasedToo: true)

    private func text(_ text: String) -> String { table.text(of: ArraySlice(text.utf8)) }

    @Test("each literal, as given and lower-cased, is found at its place")
    func found() {
        #expect(table.texts == ["Host", "Content-Length", "ETag", "host", "content-length", "etag"])
        for (index, literal) in table.texts.enumerated() {
            #expect(Array(literal.utf8).withUnsafeBufferPointer { table.find($0) } == index)
        }
    }

    @Test("bytes that are not exactly a literal are not found, and decode as they are",
          arguments: ["HOST", "Hos", "Hostt", "ETAG", "eTag", "Content-Lengt", "", String(repeating: "x", count: 70), "hosté"])
    func notFound(candidate: String) {
        #expect(Array(candidate.utf8).withUnsafeBufferPointer { table.find($0) } == nil)
        #expect(text(candidate) == candidate)
    }

    @Test("a slice in the middle of a buffer is looked up by its own bytes")
    func slice() {
        let bytes = Array("xxHostyy".utf8)
        #expect(table.text(of: bytes[2..<6]) == "Host")
        #expect(table.text(of: bytes[1..<5]) == "xHos")
    }
}
