/// RFC 7540's priority signal (RFC 9113 §5.3.2, §6.3), in a PRIORITY frame or a HEADERS frame with the
/// PRIORITY flag: read and checked, otherwise ignored (RFC 9113 deprecates the scheme).
package struct HTTP2Priority: Hashable, Sendable {
    package var exclusive: Bool
    package var dependency: UInt32
    /// The weight as sent (0 to 255; the weight it means is one more).
    package var weight: UInt8

    package init(exclusive: Bool = false, dependency: UInt32 = 0, weight: UInt8 = 15) {
        self.exclusive = exclusive
        self.dependency = dependency
        self.weight = weight
    }

    /// Reads the five bytes at `offset` of `bytes`.
    init(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
        let word = HTTP2Bytes.uint32(bytes, at: offset)
        exclusive = word & 0x8000_0000 != 0
        dependency = word & 0x7FFF_FFFF
        weight = bytes[offset + 4]
    }

    func write(into output: inout [UInt8]) {
        HTTP2Bytes.append(dependency & 0x7FFF_FFFF | (exclusive ? 0x8000_0000 : 0), to: &output)
        output.append(weight)
    }
}
