/// A folder name as the mail store knows it (Unicode, levels separated by `/`), checked so that
/// it cannot reach outside the store, and its IMAP forms: modified UTF-7 (RFC 3501 §5.1.3) and
/// UTF-8 (RFC 9051 §5.1, RFC 6855). `INBOX` in any case is `INBOX`, also as a first level.
package struct IMAPMailboxName: Hashable, Sendable, CustomStringConvertible {
    /// The hierarchy delimiter the server announces in LIST.
    package static let delimiter: Character = "/"
    /// The longest name accepted, in bytes of either form.
    package static let maximumLength = 1_024

    /// The folder name, Unicode, with `INBOX` canonical.
    package let name: String

    /// The name's levels, outermost first.
    package var segments: [Substring] { name.split(separator: Self.delimiter) }

    /// Whether this is the INBOX itself.
    package var isInbox: Bool { name == "INBOX" }

    package var description: String { name }

    /// Checks a Unicode folder name (from the store, or a UTF-8 client after decoding).
    ///
    /// - Throws: ``IMAPMailboxNameError`` saying what is wrong.
    package init(_ name: String) throws(IMAPMailboxNameError) {
        guard name.utf8.count <= Self.maximumLength else { throw .tooLong(length: name.utf8.count) }
        guard !name.isEmpty else { throw .empty }
        for scalar in name.unicodeScalars where Self.isControl(scalar) {
            throw .controlCharacter(scalar.value)
        }
        var segments = name.split(separator: Self.delimiter, omittingEmptySubsequences: false)
        for segment in segments {
            if segment.isEmpty { throw .emptySegment }
            if segment == "." || segment == ".." { throw .relativeSegment(String(segment)) }
        }
        if segments[0].uppercased() == "INBOX" { segments[0] = "INBOX" }
        self.name = segments.joined(separator: String(Self.delimiter))
    }

    /// Decodes and checks a name as an IMAP4rev1 client sends it, in modified UTF-7.
    ///
    /// - Throws: ``IMAPMailboxNameError`` naming the offset of bad modified UTF-7, or the
    ///   name's fault.
    package init(modifiedUTF7 bytes: [UInt8]) throws(IMAPMailboxNameError) {
        guard bytes.count <= Self.maximumLength else { throw .tooLong(length: bytes.count) }
        try self.init(Self.decodeModifiedUTF7(bytes))
    }

    /// Decodes and checks a name as a client that enabled UTF8=ACCEPT sends it, in UTF-8.
    ///
    /// - Throws: ``IMAPMailboxNameError/invalidUTF8``, or the name's fault.
    package init(utf8 bytes: [UInt8]) throws(IMAPMailboxNameError) {
        guard bytes.count <= Self.maximumLength else { throw .tooLong(length: bytes.count) }
        guard let name = String(validating: bytes, as: UTF8.self) else { throw .invalidUTF8 }
        try self.init(name)
    }

    /// The name in modified UTF-7, as LIST shows it to an IMAP4rev1 client.
    package var modifiedUTF7: String { Self.encodeModifiedUTF7(name) }

    /// Whether `scalar` is a C0 control, DEL or a C1 control.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
