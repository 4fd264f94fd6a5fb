/// RFC 2047 encoded words in header text: `=?charset?B?…?=` (base64) and `=?charset?Q?…?=` (Q), in any
/// charset `MIMECharset` reads (a `*language` suffix ignored). As Python's `policy.default` reads
/// them: white space between two encoded words goes, so that adjacent words join; an encoded word
/// inside other text is decoded too; one that is malformed (bad syntax, base64 that is not) stays as
/// written. One pass over the text.
package enum MIMEEncodedWords {
    /// `text` with its encoded words decoded.
    package static func decode(_ text: String) -> String {
        guard text.mayHoldEncodedWord else { return text }
        let bytes = Array(text.utf8)
        var output = ""
        output.reserveCapacity(bytes.count)
        // Plain text not yet written, kept apart while it is white space after an encoded word.
        var pending: [UInt8] = []
        var afterWord = false
        var index = 0
        func flush() {
            if !pending.isEmpty { output += String(decoding: pending, as: UTF8.self) }
            pending.removeAll(keepingCapacity: true)
        }
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "="), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "?"),
               let (decoded, end) = word(in: bytes, at: index) {
                // Only white space since the last encoded word: it goes.
                if afterWord { pending.removeAll(keepingCapacity: true) }
                flush()
                output += decoded
                afterWord = true
                index = end
                continue
            }
            let byte = bytes[index]
            if byte != UInt8(ascii: " "), byte != UInt8(ascii: "\t") { afterWord = false }
            pending.append(byte)
            index += 1
        }
        flush()
        return output
    }

    /// The encoded word that starts at `start` (at `=?`), decoded, and where it ends; nil when none
    /// starts there.
    static func word(in bytes: [UInt8], at start: Int) -> (String, Int)? {
        // =? charset ? encoding ? text ?=, with no white space or `?` inside each piece.
        var cursor = start + 2
        func piece() -> Range<Int>? {
            let begin = cursor
            while cursor < bytes.count, bytes[cursor] != UInt8(ascii: "?") {
                if bytes[cursor] <= 0x20 || bytes[cursor] >= 0x7F { return nil }
                cursor += 1
            }
            guard cursor < bytes.count, cursor > begin else { return nil }
            return begin..<cursor
        }
        guard let charsetRange = piece() else { return nil }
        cursor += 1
        guard let encodingRange = piece(), encodingRange.count == 1 else { return nil }
        cursor += 1
        let textStart = cursor
        while cursor < bytes.count, bytes[cursor] != UInt8(ascii: "?") {
            if bytes[cursor] <= 0x20 || bytes[cursor] >= 0x7F { return nil }
            cursor += 1
        }
        guard cursor + 1 < bytes.count, bytes[cursor + 1] == UInt8(ascii: "=") else { return nil }
        let textRange = textStart..<cursor
        var charset = String(decoding: bytes[charsetRange], as: UTF8.self)
        if let star = charset.firstIndex(of: "*") { charset = String(charset[..<star]) }
        let decoded: [UInt8]? = bytes.withUnsafeBytes { buffer in
            let text = UnsafeRawBufferPointer(rebasing: buffer[textRange])
            switch bytes[encodingRange.lowerBound] {
            case UInt8(ascii: "B"), UInt8(ascii: "b"):
                // Only the alphabet and padding, in whole groups (or a group short of its padding).
                guard text.allSatisfy({ MIMEBase64.values[Int($0)] != 0xFF || $0 == UInt8(ascii: "=") }), text.count % 4 != 1 else { return nil }
                return MIMEBase64.decode(text)
            case UInt8(ascii: "Q"), UInt8(ascii: "q"):
                return MIMEQuotedPrintable.decode(text, header: true)
            default:
                return nil
            }
        }
        guard let decoded else { return nil }
        return (MIMECharset.decode(decoded, charset: charset), cursor + 2)
    }
}
