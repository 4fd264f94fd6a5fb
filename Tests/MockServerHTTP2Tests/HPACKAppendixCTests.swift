import MockServerHTTP2
import Testing

/// Every example of RFC 7541 Appendix C: the decoder reads each block to its header list and table,
/// and the encoder writes the same block from the same list.
@Suite("HPACK: RFC 7541 Appendix C")
struct HPACKAppendixCTests {
    /// One block of an example: its bytes, its header list, and the dynamic table after it (newest
    /// first) with the table's size.
    struct Step {
        var block: String
        var headers: [HPACKHeader]
        var table: [HPACKHeader]
        var size: Int
    }

    /// The dynamic table's entries, newest first.
    static func entries(_ table: HPACKDynamicTable) -> [HPACKHeader] {
        (0..<table.count).compactMap { table.entry(at: 62 + $0) }
    }

    /// Decodes the steps in order with one decoder; encodes them with one encoder when `encode`.
    static func check(_ steps: [Step], tableSize: Int, huffman: Bool, encode: Bool = true) throws {
        var decoder = HPACKDecoder(maximumTableSizeLimit: tableSize)
        var encoder = HPACKEncoder(preferredTableSize: tableSize)
        encoder.huffman = huffman
        for (number, step) in steps.enumerated() {
            let block = hex(step.block)
            let decoded = try decoder.decode(block)
            #expect(decoded == step.headers, "block \(number + 1)")
            #expect(entries(decoder.table) == step.table, "block \(number + 1)")
            #expect(decoder.table.size == step.size, "block \(number + 1)")
            guard encode else { continue }
            var encoded: [UInt8] = []
            encoder.encode(step.headers, into: &encoded)
            // The examples' tables start at their size; this encoder starts at HTTP/2's 4096 and
            // announces a smaller one first (§4.2): 256 is 3f e1 01.
            let expected = (number == 0 && tableSize != 4096 ? hex("3fe101") : []) + block
            #expect(encoded == expected, "block \(number + 1): \(encoded.map { String($0, radix: 16) })")
            #expect(entries(encoder.table) == step.table, "block \(number + 1)")
        }
    }

    /// The steps of an example: its blocks, each with its list and table from `examples`.
    static func check(blocks: [String], _ examples: [(headers: [HPACKHeader], table: [HPACKHeader], size: Int)], tableSize: Int, huffman: Bool) throws {
        try check(zip(blocks, examples).map { Step(block: $0, headers: $1.headers, table: $1.table, size: $1.size) }, tableSize: tableSize, huffman: huffman)
    }

    @Test("C.2.1: a literal field with indexing goes into the table")
    func literalWithIndexing() throws {
        try Self.check([Step(block: "400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572",
                             headers: fields(["custom-key": "custom-header"]), table: fields(["custom-key": "custom-header"]), size: 55)],
                       tableSize: 4096, huffman: false)
    }

    @Test("C.2.2: a literal field without indexing leaves the table empty; the encoder writes one for a field its table cannot hold")
    func literalWithoutIndexing() throws {
        let block = hex("040c 2f73 616d 706c 652f 7061 7468")
        var decoder = HPACKDecoder()
        #expect(try decoder.decode(block) == fields([":path": "/sample/path"]))
        #expect(decoder.table.count == 0 && decoder.table.size == 0)
        // An encoder with a table of 0 (announced first: 20) indexes nothing, and writes the same bytes.
        var encoder = HPACKEncoder(preferredTableSize: 0)
        encoder.huffman = false
        var encoded: [UInt8] = []
        encoder.encode(fields([":path": "/sample/path"]), into: &encoded)
        #expect(encoded == hex("20") + block)
        #expect(encoder.table.count == 0)
    }

    @Test("C.2.3: a never-indexed literal comes out sensitive, and a sensitive field goes out never indexed")
    func neverIndexed() throws {
        let block = hex("1008 7061 7373 776f 7264 0673 6563 7265 74")
        var decoder = HPACKDecoder()
        #expect(try decoder.decode(block) == [HPACKHeader("password", "secret", sensitive: true)])
        #expect(decoder.table.count == 0)
        var encoder = HPACKEncoder()
        encoder.huffman = false
        var encoded: [UInt8] = []
        encoder.encode([HPACKHeader("password", "secret", sensitive: true)], into: &encoded)
        #expect(encoded == block)
        #expect(encoder.table.count == 0)
    }

    @Test("C.2.4: an indexed field from the static table")
    func indexed() throws {
        try Self.check([Step(block: "82", headers: fields([":method": "GET"]), table: [], size: 0)], tableSize: 4096, huffman: false)
    }

    static let requests: [(headers: [HPACKHeader], table: [HPACKHeader], size: Int)] = [
        (fields([":method": "GET", ":scheme": "http", ":path": "/", ":authority": "www.example.com"]),
         fields([":authority": "www.example.com"]), 57),
        (fields([":method": "GET", ":scheme": "http", ":path": "/", ":authority": "www.example.com", "cache-control": "no-cache"]),
         fields(["cache-control": "no-cache", ":authority": "www.example.com"]), 110),
        (fields([":method": "GET", ":scheme": "https", ":path": "/index.html", ":authority": "www.example.com", "custom-key": "custom-value"]),
         fields(["custom-key": "custom-value", "cache-control": "no-cache", ":authority": "www.example.com"]), 164),
    ]

    @Test("C.3: three requests without Huffman coding share one table")
    func requestsWithoutHuffman() throws {
        let blocks = ["8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d", "8286 84be 5808 6e6f 2d63 6163 6865",
                      "8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65"]
        try Self.check(blocks: blocks, Self.requests, tableSize: 4096, huffman: false)
    }

    @Test("C.4: the same requests with Huffman coding")
    func requestsWithHuffman() throws {
        let blocks = ["8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff", "8286 84be 5886 a8eb 1064 9cbf",
                      "8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf"]
        try Self.check(blocks: blocks, Self.requests, tableSize: 4096, huffman: true)
    }

    static let date1 = "Mon, 21 Oct 2013 20:13:21 GMT", date2 = "Mon, 21 Oct 2013 20:13:22 GMT"
    static let cookie = "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1"
    static let responses: [(headers: [HPACKHeader], table: [HPACKHeader], size: Int)] = [
        (fields([":status": "302", "cache-control": "private", "date": date1, "location": "https://www.example.com"]),
         fields(["location": "https://www.example.com", "date": date1, "cache-control": "private", ":status": "302"]), 222),
        (fields([":status": "307", "cache-control": "private", "date": date1, "location": "https://www.example.com"]),
         fields([":status": "307", "location": "https://www.example.com", "date": date1, "cache-control": "private"]), 222),
        (fields([":status": "200", "cache-control": "private", "date": date2, "location": "https://www.example.com",
                 "content-encoding": "gzip", "set-cookie": cookie]),
         fields(["set-cookie": cookie, "content-encoding": "gzip", "date": date2]), 215),
    ]

    @Test("C.5: three responses without Huffman coding evict from a 256-byte table")
    func responsesWithoutHuffman() throws {
        let blocks = [
            """
            4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32
            3120 474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70 6c65 2e63 6f6d
            """,
            "4803 3330 37c1 c0bf",
            """
            88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d 54c0 5a04 677a 6970
            7738 666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049 5541 5851 5745 4f49 553b 206d 6178 2d61
            6765 3d33 3630 303b 2076 6572 7369 6f6e 3d31
            """,
        ]
        try Self.check(blocks: blocks, Self.responses, tableSize: 256, huffman: false)
    }

    @Test("C.6: the same responses with Huffman coding")
    func responsesWithHuffman() throws {
        let blocks = [
            """
            4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6 2d1b ff6e 919d 29ad
            1718 63c7 8f0b 97c8 e9ae 82ae 43d3
            """,
            "4883 640e ffc1 c0bf",
            """
            88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab 77ad 94e7 821d d7f2
            e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f 9587 3160 65c0 03ed 4ee5 b106 3d50 07
            """,
        ]
        try Self.check(blocks: blocks, Self.responses, tableSize: 256, huffman: true)
    }
}
