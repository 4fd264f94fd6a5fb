/// Base64 as the proto3 JSON mapping writes and reads `bytes`: written in the standard alphabet with
/// padding (RFC 4648 §4); read in the standard or the URL-safe alphabet (§5), padded or not.
package enum ProtoBase64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Each byte's value in either alphabet, or 0xFF for a byte that is in neither.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        table[Int(UInt8(ascii: "-"))] = 62
        table[Int(UInt8(ascii: "_"))] = 63
        return table
    }()

    /// `bytes` in the standard alphabet, padded with `=`.
    package static func encode(_ bytes: some Collection<UInt8>) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next()
            let third = iterator.next()
            let group = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            output.append(alphabet[Int(group >> 18 & 63)])
            output.append(alphabet[Int(group >> 12 & 63)])
            output.append(second == nil ? UInt8(ascii: "=") : alphabet[Int(group >> 6 & 63)])
            output.append(third == nil ? UInt8(ascii: "=") : alphabet[Int(group & 63)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes `text` encodes in either alphabet, with or without its padding; `nil` when a
    /// character is in neither alphabet, the padding is misplaced, or a last group has one character.
    package static func decode(_ text: String) -> [UInt8]? {
        var characters = Array(text.utf8)
        // Padding only at the end, and at most two.
        var padding = 0
        while characters.last == UInt8(ascii: "=") {
            characters.removeLast()
            padding += 1
        }
        guard padding <= 2, padding == 0 || (characters.count + padding) % 4 == 0, characters.count % 4 != 1 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(characters.count * 3 / 4)
        var group: UInt32 = 0
        var count = 0
        for character in characters {
            let value = values[Int(character)]
            guard value != 0xFF else { return nil }
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
        if count == 2 {
            output.append(UInt8(truncatingIfNeeded: group >> 4))
        } else if count == 3 {
            output.append(UInt8(truncatingIfNeeded: group >> 10))
            output.append(UInt8(truncatingIfNeeded: group >> 2))
        }
        return output
    }
}
