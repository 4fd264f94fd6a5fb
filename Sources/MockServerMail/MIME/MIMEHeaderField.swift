/// One header field of a message or a part (RFC 5322 §2.2): its name as written, its value unfolded
/// (each line break of a folded field removed, the white space after it kept, the white space after
/// the colon dropped: what Python's `policy.default` gives before decoding), and where its bytes are.
package struct MIMEHeaderField: Sendable, Equatable {
    /// The name as written (`Content-Type`).
    package let name: String
    /// The name in lower case, for look-ups (names are case-insensitive).
    package let lowercasedName: String
    /// The value, unfolded, not decoded (encoded words still as written).
    package let value: String
    /// The field's bytes in the stored message, from its name to the end of its last line (line
    /// end excluded).
    package let range: Range<Int>
}
