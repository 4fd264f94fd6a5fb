import MockServerHTTP2
import Testing

/// The decoder's limits and its answers to malformed blocks: a typed error, never a trap, and never
/// more memory than its limits allow.
@Suite("HPACK decoder")
struct HPACKDecoderTests {
    static let firstRequest = hex("8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d")

    /// A dynamic table size update to `size`.
    static func sizeUpdate(_ size: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        HPACKInteger.encode(size, prefixBits: 5, flags: 0x20, into: &bytes)
        return bytes
    }

    @Test("index 0, an index past the tables and a name index past them are typed errors")
    func badIndices() throws {
        var decoder = HPACKDecoder()
        #expect(throws: HPACKError.indexZero) { try decoder.decode(hex("80")) }
        #expect(throws: HPACKError.indexOutOfRange(index: 62, tableCount: 61)) { try decoder.decode(hex("be")) }
        #expect(throws: HPACKError.indexOutOfRange(index: 62, tableCount: 61)) { try decoder.decode(hex("7e 0161")) }
        #expect(throws: HPACKError.indexOutOfRange(index: 70, tableCount: 61)) { try decoder.decode(hex("0f37 0161")) }
        _ = try decoder.decode(Self.firstRequest)
        #expect(try decoder.decode(hex("be")) == fields([":authority": "www.example.com"]))
        #expect(throws: HPACKError.indexOutOfRange(index: 63, tableCount: 62)) { try decoder.decode(hex("bf")) }
    }

    @Test("a size update: evicts down to it, is refused above the advertised limit and after a field")
    func sizeUpdates() throws {
        var decoder = HPACKDecoder()
        _ = try decoder.decode(Self.firstRequest)
        #expect(decoder.table.count == 1)
        #expect(try decoder.decode(Self.sizeUpdate(0) + hex("82")) == fields([":method": "GET"]))
        #expect(decoder.table.count == 0 && decoder.table.maximumSize == 0)
        #expect(try decoder.decode(Self.sizeUpdate(4096)).isEmpty)
        #expect(decoder.table.maximumSize == 4096)
        #expect(throws: HPACKError.tableSizeAboveLimit(size: 4097, limit: 4096)) { try decoder.decode(Self.sizeUpdate(4097)) }
        #expect(throws: HPACKError.tableSizeAboveLimit(size: HPACKInteger.maximum, limit: 4096)) {
            try decoder.decode(Self.sizeUpdate(HPACKInteger.maximum))
        }
        #expect(throws: HPACKError.tableSizeUpdateNotAtStart) { try decoder.decode(hex("82") + Self.sizeUpdate(100)) }
    }

    @Test("a lowered limit: the next block must start with a size update within it")
    func loweredLimit() throws {
        var decoder = HPACKDecoder()
        _ = try decoder.decode(Self.firstRequest)
        decoder.setMaximumTableSizeLimit(100)
        #expect(throws: HPACKError.missingTableSizeUpdate(limit: 100)) { try decoder.decode(hex("82")) }
        #expect(throws: HPACKError.tableSizeAboveLimit(size: 200, limit: 100)) { try decoder.decode(Self.sizeUpdate(200) + hex("82")) }
        #expect(try decoder.decode(Self.sizeUpdate(0) + Self.sizeUpdate(100) + hex("82")) == fields([":method": "GET"]))
        #expect(decoder.table.count == 0 && decoder.table.maximumSize == 100)
        #expect(try decoder.decode(hex("82")) == fields([":method": "GET"]))
    }

    @Test("a header list past the limit: refused once the block is read, the table still in step with the peer")
    func headerListLimit() throws {
        var encoder = HPACKEncoder()
        var block: [UInt8] = []
        let big = [HPACKHeader("x-one", String(repeating: "a", count: 40)), HPACKHeader("x-two", String(repeating: "b", count: 40))]
        encoder.encode(big, into: &block)
        var decoder = HPACKDecoder(maximumHeaderListSize: 100)
        #expect(throws: HPACKError.headerListTooLarge(limit: 100)) { try decoder.decode(block) }
        #expect(HPACKError.headerListTooLarge(limit: 100).http2Error(streamID: 3) == HTTP2Error(.protocolError, stream: 3, "HPACK: the header list is larger than 100 bytes"))
        #expect(decoder.table.count == 2)
        // The next block refers to what the first one added.
        var next: [UInt8] = []
        encoder.encode([big[0]], into: &next)
        #expect(next.count == 1)
        #expect(try decoder.decode(next) == [big[0]])
    }

    @Test("every truncation of a valid block, and a thousand blocks of noise, end in a typed error or a list")
    func malformedBlocks() {
        let block = hex("8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf") + Self.firstRequest
        for end in 0..<block.count {
            var decoder = HPACKDecoder()
            _ = try? decoder.decode(Array(block[..<end]))
        }
        // A fixed linear congruential generator: the same noise in every run.
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        var errors = 0
        for _ in 0..<1000 {
            var noise: [UInt8] = []
            for _ in 0..<Int(seed >> 59) + 1 {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                noise.append(UInt8(truncatingIfNeeded: seed >> 56))
            }
            var decoder = HPACKDecoder(maximumTableSizeLimit: 256, maximumHeaderListSize: 512)
            do { _ = try decoder.decode(noise) } catch { errors += 1 }
            #expect(decoder.table.size <= 256)
        }
        #expect(errors > 100)
    }

    @Test("errors answer with COMPRESSION_ERROR on the connection and name the culprit")
    func errorsMapToCompressionError() {
        let error = HPACKError.indexOutOfRange(index: 70, tableCount: 61).http2Error(streamID: 1)
        #expect(error.code == .compressionError && error.scope == .connection)
        #expect(error.description == "connection error COMPRESSION_ERROR: HPACK: index 70 is past the tables' 61 entries")
    }
}
