/// Decodes bytes as UTF-8 with every ill-formed sequence replaced by U+FFFD, exactly as
/// `String(decoding:as:)` does ("maximal subpart" replacement), but without the standard library's
/// repair path, which throws an error internally for each bad sequence.
///
/// A throw is cheap in itself, but Swift Testing captures a backtrace for every thrown error in a
/// test process, which turned a 5 MiB binary upload into seconds of unwinding per request.
package enum RepairedUTF8 {
    /// The text of `bytes`, invalid sequences replaced.
    package static func decode(_ bytes: [UInt8]) -> String {
        guard let firstBad = firstInvalidIndex(bytes) else { return String(decoding: bytes, as: UTF8.self) }
        var repaired: [UInt8] = []
        repaired.reserveCapacity(bytes.count + 16)
        repaired.append(contentsOf: bytes[..<firstBad])
        var index = firstBad
        while index < bytes.count {
            let length = validSequenceLength(bytes, at: index)
            if length > 0 {
                repaired.append(contentsOf: bytes[index..<index + length])
                index += length
            } else {
                repaired.append(contentsOf: replacement)
                index += maximalSubpartLength(bytes, at: index)
            }
        }
        return String(decoding: repaired, as: UTF8.self)
    }

    private static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]

    private static func firstInvalidIndex(_ bytes: [UInt8]) -> Int? {
        var index = asciiPrefixLength(bytes)
        while index < bytes.count {
            if bytes[index] < 0x80 {
                index += 1
                continue
            }
            let length = validSequenceLength(bytes, at: index)
            guard length > 0 else { return index }
            index += length
        }
        return nil
    }

    /// How many bytes at the start are ASCII, read eight at a time: requests and lines are
    /// mostly ASCII, and this runs over every byte received.
    static func asciiPrefixLength(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { raw in
            var index = 0
            while index + 8 <= raw.count {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                if word & 0x8080_8080_8080_8080 != 0 { break }
                index += 8
            }
            while index < raw.count && raw[index] < 0x80 { index += 1 }
            return index
        }
    }

    /// The allowed range of the second byte after a lead byte, and how many bytes the sequence has
    /// (0 when the lead byte can never start one).
    private static func shape(of lead: UInt8) -> (count: Int, second: ClosedRange<UInt8>) {
        switch lead {
        case 0x00...0x7F: (1, 0x00...0xFF)
        case 0xC2...0xDF: (2, 0x80...0xBF)
        case 0xE0: (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (3, 0x80...0xBF)
        case 0xED: (3, 0x80...0x9F)
        case 0xF0: (4, 0x90...0xBF)
        case 0xF1...0xF3: (4, 0x80...0xBF)
        case 0xF4: (4, 0x80...0x8F)
        default: (0, 0x80...0xBF)
        }
    }

    /// The length of the well-formed sequence at `index`, or 0 when there is none.
    private static func validSequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        let (count, second) = shape(of: bytes[index])
        guard count > 1 else { return count }
        guard index + count <= bytes.count, second.contains(bytes[index + 1]) else { return 0 }
        for offset in 2..<count where !(0x80...0xBF).contains(bytes[index + offset]) { return 0 }
        return count
    }

    /// How many bytes one U+FFFD replaces: the longest prefix of a well-formed sequence, at least one.
    private static func maximalSubpartLength(_ bytes: [UInt8], at index: Int) -> Int {
        let (count, second) = shape(of: bytes[index])
        guard count > 1, index + 1 < bytes.count, second.contains(bytes[index + 1]) else { return 1 }
        var length = 2
        while length < count && index + length < bytes.count && (0x80...0xBF).contains(bytes[index + length]) { length += 1 }
        return length
    }
}
