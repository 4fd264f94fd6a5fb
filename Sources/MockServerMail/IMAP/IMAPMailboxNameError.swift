/// Why a mailbox name was refused; the session answers `NO` (or `BAD` for a malformed
/// argument) with ``description``, which names the culprit.
package enum IMAPMailboxNameError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An `&` run that is not modified base64 closed by `-` (RFC 3501 §5.1.3), at its offset.
    case invalidModifiedBase64(position: Int)
    /// A modified base64 run that encodes printable ASCII, which must stand for itself.
    case encodedPrintableASCII(position: Int)
    /// A modified base64 run holding an unpaired UTF-16 surrogate.
    case unpairedSurrogate(position: Int)
    /// A form the encoder never writes: leftover bits that are not zero, or two adjacent runs.
    case nonCanonical(position: Int)
    /// A byte that is not printable ASCII in a modified UTF-7 name, at its offset.
    case nonASCII(byte: UInt8, position: Int)
    /// Bytes that are not UTF-8 in a UTF-8 name (RFC 6855 UTF8=ACCEPT).
    case invalidUTF8
    /// The empty name.
    case empty
    /// A leading `/`, a trailing `/` or `//`: a segment with no name.
    case emptySegment
    /// A segment `.` or `..`, which a file-backed store would follow outside its folder.
    case relativeSegment(String)
    /// A NUL or another control character (C0, DEL or C1), as its code point.
    case controlCharacter(UInt32)
    /// A name longer than ``IMAPMailboxName/maximumLength`` bytes.
    case tooLong(length: Int)

    package var description: String {
        switch self {
        case .invalidModifiedBase64(let position):
            "invalid modified UTF-7 at offset \(position)"
        case .encodedPrintableASCII(let position):
            "modified UTF-7 at offset \(position) encodes printable ASCII"
        case .unpairedSurrogate(let position):
            "modified UTF-7 at offset \(position) holds an unpaired surrogate"
        case .nonCanonical(let position):
            "modified UTF-7 at offset \(position) is not in canonical form"
        case .nonASCII(let byte, let position):
            "byte 0x\(String(byte, radix: 16, uppercase: true)) at offset \(position) is not printable ASCII"
        case .invalidUTF8:
            "mailbox name is not valid UTF-8"
        case .empty:
            "empty mailbox name"
        case .emptySegment:
            "mailbox name has an empty hierarchy level"
        case .relativeSegment(let segment):
            "mailbox name has a \"\(segment)\" hierarchy level"
        case .controlCharacter(let value):
            "mailbox name contains control character U+\(String(value, radix: 16, uppercase: true))"
        case .tooLong(let length):
            "mailbox name of \(length) bytes exceeds \(IMAPMailboxName.maximumLength)"
        }
    }
}
