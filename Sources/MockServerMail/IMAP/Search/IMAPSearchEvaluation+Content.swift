extension IMAPSearchEvaluation {
    /// Whether `needle` is in `message`'s decoded text parts, or with `headers` in the decoded
    /// header fields of any of its parts. An attached message's fields count as fields (TEXT finds
    /// them, BODY does not) and its text parts as text parts; one the parser did not open (a
    /// base64 message/rfc822) is not searched. Dovecot answers all three so. The text and HTML bodies the message already decoded are
    /// searched as they are; other text parts are decoded here. A header section with no RFC 2047
    /// word is searched raw for a needle without white space (unfolding cannot matter to it).
    static func decodedContent(of message: MailMessage, contains needle: IMAPSearchNeedle, headers: Bool) -> Bool {
        let tree = message.tree
        let textIndex = tree.body(subtype: "plain"), htmlIndex = tree.body(subtype: "html")
        return message.raw.withUnsafeBytes { bytes in
            for (index, part) in tree.parts.enumerated() {
                if headers, headerSection(of: part, in: bytes, contains: needle) { return true }
                guard case .leaf = part.structure else { continue }
                if index == textIndex, let text = message.text {
                    if needle.occurs(inText: text) { return true }
                } else if index == htmlIndex, let html = message.html {
                    if needle.occurs(inText: html) { return true }
                } else if part.mediaType.hasPrefix("text/") {
                    let decoded = part.transferEncoding.decode(UnsafeRawBufferPointer(rebasing: bytes[part.bodyRange]))
                    if needle.occurs(inDecoded: decoded, charset: part.contentType.parameters["charset"]) { return true }
                }
            }
            return false
        }
    }

    /// Whether `needle` is in one of `part`'s header fields, decoded and unfolded (`Name: value`).
    private static func headerSection(of part: MIMEPart, in bytes: UnsafeRawBufferPointer, contains needle: IMAPSearchNeedle) -> Bool {
        let end = min(max(part.headers.bodyStart, part.range.lowerBound), part.range.upperBound)
        let region = UnsafeRawBufferPointer(rebasing: bytes[part.range.lowerBound..<end])
        if needle.isASCII, !needle.hasWhiteSpace, !holdsEncodedWord(region) {
            return needle.occurs(in: region)
        }
        return part.headers.fields.contains { needle.occurs(inText: $0.name + ": " + MIMEEncodedWords.decode($0.value)) }
    }

    /// Whether `bytes` hold `=?`, the start of an RFC 2047 word.
    private static func holdsEncodedWord(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var previous: UInt8 = 0
        for byte in bytes {
            if previous == UInt8(ascii: "="), byte == UInt8(ascii: "?") { return true }
            previous = byte
        }
        return false
    }
}
