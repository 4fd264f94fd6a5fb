@testable import MockServerHTTP2
import MockServerHTTP
import Testing

/// The chunk coding taken off a streamed body for HTTP/2: the pieces' bytes, and the trailer section
/// after the last chunk kept for the closing HEADERS frame, whatever the split.
@Suite("HTTP/2 chunk reader")
struct HTTP2ChunkReaderTests {
    private static let coded = Array("5\r\n\0\0\0\0\u{2}\r\n2\r\n\u{8}\u{7}\r\n0\r\ngrpc-status: 5\r\ngrpc-message:  no item \t\r\n\r\nafter".utf8)

    private static func fields(_ reader: HTTP2ChunkReader) -> [String] {
        reader.trailers.map { "\($0.name)=\($0.value)" }
    }

    @Test("the body and the trailer section, in one piece or byte by byte")
    func trailers() {
        var whole = HTTP2ChunkReader()
        #expect(whole.take(Self.coded) == [0, 0, 0, 0, 2, 8, 7])
        #expect(Self.fields(whole) == ["grpc-status=5", "grpc-message=no item"])
        var split = HTTP2ChunkReader()
        var body: [UInt8] = []
        for byte in Self.coded { body += split.take([byte]) }
        #expect(body == [0, 0, 0, 0, 2, 8, 7])
        #expect(Self.fields(split) == ["grpc-status=5", "grpc-message=no item"])
        #expect(split.takeRest() == [])
    }

    @Test("no trailer section: no fields; a cut piece's bytes come with takeRest")
    func noTrailers() {
        var ended = HTTP2ChunkReader()
        #expect(ended.take(Array("2\r\nhi\r\n0\r\n\r\n".utf8)) == Array("hi".utf8))
        #expect(Self.fields(ended).isEmpty)
        var cut = HTTP2ChunkReader()
        #expect(cut.take(Array("5\r\nab".utf8)) == [])
        #expect(cut.takeRest() == Array("ab".utf8))
        var whole = HTTP2ChunkReader()
        #expect(whole.take(Array("2\r\nhi".utf8)) == [])
        #expect(whole.takeRest() == Array("hi".utf8))
    }
}
