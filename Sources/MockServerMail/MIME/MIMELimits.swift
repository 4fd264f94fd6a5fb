/// How far the MIME parser goes into a message before it stops descending and marks the message
/// truncated (`MailMessage.isTruncated`). The raw bytes are kept whatever the limits.
///
/// The defaults: 32 levels of nesting (Postfix's `mime_nesting_limit` is 100, Dovecot's 100; real mail
/// rarely passes 5), 1,000 parts (Mailpit shows a few dozen at most), and 65,536 bytes of one header
/// field, folded lines included (RFC 5322 allows 998 a line; 64 KiB leaves room for long `To` lists).
package struct MIMELimits: Sendable, Equatable {
    /// The deepest level parsed: the message is level 0, its parts level 1, … A multipart or
    /// message/rfc822 part at this level is kept as one leaf, its body unparsed.
    package var maximumDepth: Int
    /// The most parts parsed, containers included; the parts past it are not listed.
    package var maximumParts: Int
    /// The most bytes of one header field (its name, the colon and its folded lines); past it, the
    /// value is cut there.
    package var maximumHeaderLength: Int

    package init(maximumDepth: Int = 32, maximumParts: Int = 1_000, maximumHeaderLength: Int = 65_536) {
        self.maximumDepth = maximumDepth
        self.maximumParts = maximumParts
        self.maximumHeaderLength = maximumHeaderLength
    }
}
