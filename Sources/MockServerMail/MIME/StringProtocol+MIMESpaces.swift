extension StringProtocol {
    /// The text without the spaces, tabs, CRs and LFs at its ends: what Foundation's
    /// `trimmingCharacters(in:)` does for these, without bridging to `NSString` (a third of the time
    /// of a small part's parse went there).
    var trimmingMIMESpaces: String {
        let utf8 = self.utf8
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        var first: String.Index?, end = utf8.startIndex
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index], start = index
            utf8.formIndex(after: &index)
            if !isSpace(byte) {
                if first == nil { first = start }
                end = index
            }
        }
        guard let first else { return "" }
        return String(self[first..<end])
    }

    /// Whether the text holds `=?`, the start of an RFC 2047 word (a byte scan, no bridging).
    var mayHoldEncodedWord: Bool {
        var previous: UInt8 = 0
        for byte in utf8 {
            if previous == UInt8(ascii: "="), byte == UInt8(ascii: "?") { return true }
            previous = byte
        }
        return false
    }
}
