import MockServerHTTP2
import Testing

/// HPACK's integers and strings (RFC 7541 §5), Huffman coding included.
@Suite("HPACK primitives")
struct HPACKPrimitivesTests {
    static func decodeInteger(_ bytes: [UInt8], prefixBits: Int) throws(HPACKError) -> (value: Int, end: Int) {
        var offset = 0
        var result: Result<Int, HPACKError> = .success(0)
        bytes.withUnsafeBytes { raw in result = Result { () throws(HPACKError) in try HPACKInteger.decode(raw, prefixBits: prefixBits, offset: &offset) } }
        return (try result.get(), offset)
    }

    static func decodeString(_ bytes: [UInt8]) throws(HPACKError) -> [UInt8] {
        var offset = 0
        var result: Result<[UInt8], HPACKError> = .success([])
        bytes.withUnsafeBytes { raw in result = Result { () throws(HPACKError) in try HPACKString.decode(raw, offset: &offset) } }
        return try result.get()
    }

    static func huffmanDecode(_ bytes: [UInt8]) throws(HPACKError) -> [UInt8] {
        var result: Result<[UInt8], HPACKError> = .success([])
        bytes.withUnsafeBytes { raw in result = Result { () throws(HPACKError) in try HPACKHuffman.decode(raw) } }
        return try result.get()
    }

    @Test("C.1: 10 and 1337 with a 5-bit prefix, 42 at an octet boundary; the flags above the prefix kept")
    func integerExamples() throws {
        for (value, prefix, bytes) in [(10, 5, "0a"), (1337, 5, "1f9a0a"), (42, 8, "2a"), (31, 5, "1f00"), (0, 7, "00"), (127, 7, "7f00")] {
            var encoded: [UInt8] = []
            HPACKInteger.encode(value, prefixBits: prefix, into: &encoded)
            #expect(encoded == hex(bytes), "\(value)")
            let decoded = try Self.decodeInteger(hex(bytes), prefixBits: prefix)
            #expect(decoded.value == value && decoded.end == encoded.count)
        }
        var flagged: [UInt8] = []
        HPACKInteger.encode(1337, prefixBits: 5, flags: 0xE0, into: &flagged)
        #expect(flagged == hex("ff9a0a"))
        #expect(try Self.decodeInteger(flagged, prefixBits: 5).value == 1337)
    }

    @Test("integers round-trip at every prefix, up to 2^32 - 1")
    func integerRoundTrips() throws {
        for prefix in 1...8 {
            for value in [0, 1, (1 << prefix) - 2, (1 << prefix) - 1, 1 << prefix, 127, 128, 16_383, 16_384, 1 << 21, HPACKInteger.maximum] {
                var encoded: [UInt8] = []
                HPACKInteger.encode(value, prefixBits: prefix, into: &encoded)
                #expect(try Self.decodeInteger(encoded, prefixBits: prefix) == (value, encoded.count))
            }
        }
    }

    @Test("a truncated integer, one past 2^32 - 1 and one with endless zero continuations are typed errors")
    func integerErrors() {
        #expect(throws: HPACKError.truncatedInteger) { try Self.decodeInteger([], prefixBits: 5) }
        #expect(throws: HPACKError.truncatedInteger) { try Self.decodeInteger(hex("1f"), prefixBits: 5) }
        #expect(throws: HPACKError.truncatedInteger) { try Self.decodeInteger(hex("1f9a"), prefixBits: 5) }
        // 2^32 with a 5-bit prefix: 31 + (2^32 - 31).
        var past: [UInt8] = []
        HPACKInteger.encode(HPACKInteger.maximum + 1, prefixBits: 5, into: &past)
        #expect(throws: HPACKError.integerOverflow) { try Self.decodeInteger(past, prefixBits: 5) }
        #expect(throws: HPACKError.integerOverflow) { try Self.decodeInteger(hex("1fffffffffffffffffff7f"), prefixBits: 5) }
        #expect(throws: HPACKError.integerOverflow) { try Self.decodeInteger(hex("1f8080808080808000"), prefixBits: 5) }
    }

    @Test("Huffman: www.example.com and no-cache as in C.4, every byte value round-trips, lengths are exact")
    func huffmanCoding() throws {
        for (text, coded) in [("www.example.com", "f1e3 c2e5 f23a 6ba0 ab90 f4ff"), ("no-cache", "a8eb 1064 9cbf"),
                              ("custom-key", "25a8 49e9 5ba9 7d7f"), ("", "")] {
            var encoded: [UInt8] = []
            HPACKHuffman.encode(Array(text.utf8), into: &encoded)
            #expect(encoded == hex(coded), "\(text)")
            #expect(HPACKHuffman.encodedLength(of: Array(text.utf8)) == encoded.count)
            #expect(try Self.huffmanDecode(encoded) == Array(text.utf8))
        }
        let every = (0...255).map { UInt8($0) }
        let samples: [[UInt8]] = [every, every.reversed(), [UInt8](repeating: 0xFF, count: 100), [0], [0x30, 0x31]]
        for bytes in samples {
            var encoded: [UInt8] = []
            HPACKHuffman.encode(bytes, into: &encoded)
            #expect(encoded.count == HPACKHuffman.encodedLength(of: bytes))
            #expect(try Self.huffmanDecode(encoded) == bytes)
        }
    }

    @Test("Huffman: padding of eight ones, padding with a zero bit, and EOS in a string are typed errors")
    func huffmanErrors() {
        // 'a' is 00011: padded with 111 it is 0x1f; with 000 (not EOS's bits) it is invalid.
        #expect(throws: Never.self) { try Self.huffmanDecode(hex("1f")) }
        #expect(throws: HPACKError.invalidHuffmanPadding) { try Self.huffmanDecode(hex("18")) }
        #expect(throws: HPACKError.invalidHuffmanPadding) { try Self.huffmanDecode(hex("1e")) }
        // A whole byte of padding after 'a' ends on a byte: eight ones of padding are too many.
        #expect(throws: HPACKError.invalidHuffmanPadding) { try Self.huffmanDecode(hex("1fff")) }
        #expect(throws: HPACKError.invalidHuffmanPadding) { try Self.huffmanDecode(hex("ff")) }
        // EOS: 30 ones, then two bits of padding.
        #expect(throws: HPACKError.huffmanEOS) { try Self.huffmanDecode(hex("ffffffff")) }
        #expect(throws: HPACKError.huffmanEOS) { try Self.huffmanDecode(hex("1fffffffff")) }
    }

    @Test("strings: raw and Huffman literals, the shorter chosen; a length past the block is a typed error")
    func strings() throws {
        var raw: [UInt8] = []
        HPACKString.encode(Array("custom-key".utf8), huffman: false, into: &raw)
        #expect(raw == hex("0a") + Array("custom-key".utf8))
        var coded: [UInt8] = []
        HPACKString.encode(Array("custom-key".utf8), into: &coded)
        #expect(coded == hex("88 25a8 49e9 5ba9 7d7f"))
        // Bytes whose codes are long (0x00 is 13 bits) are sent raw.
        var long: [UInt8] = []
        HPACKString.encode([0, 1, 2], into: &long)
        #expect(long == hex("03 000102"))
        for bytes in [raw, coded, long] { #expect(try Self.decodeString(bytes).count > 0) }
        #expect(throws: HPACKError.truncatedString(length: 10, available: 3)) { try Self.decodeString(hex("0a616263")) }
        #expect(throws: HPACKError.truncatedString(length: 0, available: 0)) { try Self.decodeString([]) }
        #expect(throws: HPACKError.truncatedInteger) { try Self.decodeString(hex("7f")) }
    }
}
