/// HPACK's string literal (RFC 7541 §5.2): a Huffman flag and a 7-bit-prefix length, then the bytes,
/// raw or Huffman-coded.
package enum HPACKString {
    /// Appends `bytes` as a string literal, Huffman-coded unless that is longer (or `huffman` is false);
    /// at equal lengths Huffman wins, as in RFC 7541's examples (C.6.2's `307`).
    package static func encode<Bytes: Collection<UInt8>>(_ bytes: Bytes, huffman: Bool = true, into output: inout [UInt8]) {
        let coded = huffman ? HPACKHuffman.encodedLength(of: bytes) : Int.max
        if coded <= bytes.count {
            HPACKInteger.encode(coded, prefixBits: 7, flags: 0x80, into: &output)
            HPACKHuffman.encode(bytes, into: &output)
        } else {
            HPACKInteger.encode(bytes.count, prefixBits: 7, into: &output)
            output.append(contentsOf: bytes)
        }
    }

    /// Reads a string literal at `offset` of `bytes`, moving `offset` past it.
    package static func decode(_ bytes: UnsafeRawBufferPointer, offset: inout Int) throws(HPACKError) -> [UInt8] {
        guard offset < bytes.count else { throw .truncatedString(length: 0, available: 0) }
        let huffman = bytes[offset] & 0x80 != 0
        let length = try HPACKInteger.decode(bytes, prefixBits: 7, offset: &offset)
        guard length <= bytes.count - offset else { throw .truncatedString(length: length, available: bytes.count - offset) }
        let literal = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)])
        offset += length
        return huffman ? try HPACKHuffman.decode(literal) : Array(literal)
    }
}
