/// Bytes as lower-case hexadecimal, two digits a byte, written into one buffer: a digest for APOP
/// and CRAM-MD5, a file name's hash, a gRPC message in the transcript. Pure code.
package enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// `bytes` in lower-case hex (`[0x0a, 0xff]` is `0aff`).
    package static func lowercase(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
