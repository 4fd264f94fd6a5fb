/// Base64 as mail carries it (RFC 2045 §6.8), read as Python's `email` reads it: line breaks and any
/// other byte outside the alphabet are skipped, padding that completes a group ends the data, and a
/// last group of two or three characters gives its one or two bytes even without its padding. A
/// single character left over is dropped (Python would give the undecoded text back instead).
package enum MIMEBase64 {
    /// The alphabet's values by byte; 0xFF for a byte outside it.
    static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(byte)] = UInt8(index)
        }
        return table
    }()

    /// The bytes `encoded` stands for.
    package static func decode(_ encoded: UnsafeRawBufferPointer) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(encoded.count / 4 * 3 + 2)
        var group: UInt32 = 0
        var count = 0
        var pads = 0
        values.withUnsafeBufferPointer { table in
            for byte in encoded {
                if byte == UInt8(ascii: "=") {
                    pads += 1
                    if count >= 2, count + pads >= 4 { break }
                    continue
                }
                let value = table[Int(byte)]
                if value == 0xFF { continue }
                pads = 0
                group = group << 6 | UInt32(value)
                count += 1
                if count == 4 {
                    output.append(UInt8(truncatingIfNeeded: group >> 16))
                    output.append(UInt8(truncatingIfNeeded: group >> 8))
                    output.append(UInt8(truncatingIfNeeded: group))
                    group = 0
                    count = 0
                }
            }
        }
        if count == 2 {
            output.append(UInt8(truncatingIfNeeded: group >> 4))
        } else if count == 3 {
            output.append(UInt8(truncatingIfNeeded: group >> 10))
            output.append(UInt8(truncatingIfNeeded: group >> 2))
        }
        return output
    }
}
