/// The name of a mailbox in the store: an address as a key, its domain compared in any case and its
/// local part as given (RFC 5321 §2.4: only the domain is case-insensitive everywhere).
///
/// A login that is no address (POP3's `USER bob`) names a mailbox too, as written.
package struct MailboxAddress: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The address as written (angle brackets and white space around it removed).
    package let text: String
    /// The key: the local part as given, `@`, the domain lowercased.
    package let key: String

    /// Reads an address such as `Dana@Example.NET` or `<dana@example.net>`.
    package init(_ text: String) {
        var trimmed = Substring(text.trimmingMIMESpaces)
        if trimmed.hasPrefix("<"), trimmed.hasSuffix(">"), trimmed.count >= 2 { trimmed = trimmed.dropFirst().dropLast() }
        self.text = String(trimmed)
        if let at = trimmed.lastIndex(of: "@") {
            key = String(trimmed[..<at]) + "@" + trimmed[trimmed.index(after: at)...].lowercased()
        } else {
            key = String(trimmed)
        }
    }

    /// Whether this is an address: a local part, `@` and a domain, with no space or control
    /// character (what a seed folder's name must be).
    package var isAddress: Bool {
        guard let at = text.lastIndex(of: "@"), at != text.startIndex, text.index(after: at) != text.endIndex else { return false }
        return !text.unicodeScalars.contains { $0.value <= 0x20 || $0.value == 0x7F || $0 == "/" }
    }

    package static func == (lhs: MailboxAddress, rhs: MailboxAddress) -> Bool { lhs.key == rhs.key }
    package func hash(into hasher: inout Hasher) { hasher.combine(key) }
    package static func < (lhs: MailboxAddress, rhs: MailboxAddress) -> Bool { lhs.key < rhs.key }

    package var description: String { text }
}
