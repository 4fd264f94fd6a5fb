import MockServerHTTP2
import Testing

/// The encoder against this package's decoder: lists round-trip over many blocks with the tables in
/// step, repeated fields shrink to indices, sensitive ones are never indexed, size changes are announced.
@Suite("HPACK encoder")
struct HPACKEncoderTests {
    @Test("lists round-trip block after block, the two tables equal; a repeated list is all indices")
    func roundTrips() throws {
        var encoder = HPACKEncoder(), decoder = HPACKDecoder()
        let lists: [[HPACKHeader]] = [
            fields([":method": "GET", ":scheme": "https", ":path": "/a", ":authority": "example.com", "accept": "*/*"]),
            fields([":method": "POST", ":scheme": "https", ":path": "/b", ":authority": "example.com", "content-type": "application/grpc"]),
            [HPACKHeader(name: Array("x-bytes".utf8), value: [0xFF, 0x00, 0x80, 0x7F]), HPACKHeader("cookie", "a=1", sensitive: true)],
            [HPACKHeader("x-large", String(repeating: "z", count: 5000))],
            fields([":status": "200", "grpc-status": "0", "grpc-message": ""]),
        ]
        for list in lists + lists {
            var block: [UInt8] = []
            encoder.encode(list, into: &block)
            #expect(try decoder.decode(block) == list)
            #expect(encoder.table.size == decoder.table.size && encoder.table.count == decoder.table.count)
        }
        var again: [UInt8] = []
        encoder.encode(lists[1], into: &again)
        #expect(again.count == lists[1].count, "\(again)")
    }

    @Test("a sensitive field is never indexed, even when the table holds it; a field larger than the table is not added")
    func sensitiveAndLarge() throws {
        var encoder = HPACKEncoder()
        var block: [UInt8] = []
        encoder.encode(fields(["authorization": "Bearer x"]), into: &block)
        #expect(encoder.table.count == 1)
        block = []
        encoder.encode([HPACKHeader("authorization", "Bearer x", sensitive: true)], into: &block)
        #expect(block.first.map { $0 & 0xF0 } == 0x10 && block.count > 1)
        #expect(encoder.table.count == 1)
        block = []
        encoder.encode([HPACKHeader("x-huge", String(repeating: "q", count: 4096))], into: &block)
        #expect(block.first == 0x00 && encoder.table.count == 1)
    }

    @Test("the peer's table size: a smaller one is announced and evicts; a shrink then a growth sends both updates")
    func peerTableSize() throws {
        var encoder = HPACKEncoder(), decoder = HPACKDecoder()
        var block: [UInt8] = []
        encoder.encode(fields([":authority": "example.com"]), into: &block)
        _ = try decoder.decode(block)
        encoder.setPeerTableSizeLimit(0)
        decoder.setMaximumTableSizeLimit(0)
        block = []
        encoder.encode(fields([":authority": "example.com"]), into: &block)
        #expect(block.first == 0x20)
        #expect(try decoder.decode(block) == fields([":authority": "example.com"]))
        #expect(encoder.table.count == 0 && decoder.table.count == 0)
        encoder.setPeerTableSizeLimit(100)
        encoder.setPeerTableSizeLimit(4096)
        decoder.setMaximumTableSizeLimit(4096)
        block = []
        encoder.encode(fields(["x-a": "b"]), into: &block)
        #expect(Array(block.prefix(5)) == hex("3f45 3fe11f"))
        #expect(try decoder.decode(block) == fields(["x-a": "b"]))
        #expect(decoder.table.maximumSize == 4096 && decoder.table.count == 1)
        // A preference below the peer's limit is kept.
        var small = HPACKEncoder(preferredTableSize: 1024)
        small.setPeerTableSizeLimit(8192)
        #expect(small.table.maximumSize == 1024)
    }
}
