/// Why a sequence set was refused; the session answers `BAD` with ``description``
/// (RFC 9051 §9: numbers are 32-bit, nz-number has no leading zero).
package enum IMAPSequenceSetError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The set was empty, or an element between commas was.
    case empty(position: Int)
    /// A character that has no place in a sequence set, at its offset.
    case unexpected(character: UInt8, position: Int)
    /// The number 0 (sequence numbers and UIDs start at 1), or a number with a leading zero.
    case zero(position: Int)
    /// A number above 4294967295 (32 bits), as written.
    case tooLarge(number: String, position: Int)
    /// `$` combined with other elements (RFC 9051 allows `$` only as the whole set).
    case savedNotAlone(position: Int)
    /// A set longer than ``IMAPSequenceSet/maximumLength`` bytes.
    case tooLong(length: Int)

    package var description: String {
        switch self {
        case .empty(let position):
            "empty sequence set element at offset \(position)"
        case .unexpected(let character, let position):
            "unexpected character \(Self.show(character)) in sequence set at offset \(position)"
        case .zero(let position):
            "sequence number at offset \(position) is zero or has a leading zero"
        case .tooLarge(let number, let position):
            "sequence number \(number) at offset \(position) exceeds 4294967295"
        case .savedNotAlone(let position):
            "\"$\" at offset \(position) must be the whole sequence set"
        case .tooLong(let length):
            "sequence set of \(length) bytes exceeds \(IMAPSequenceSet.maximumLength)"
        }
    }

    /// A byte shown readably: printable ASCII as itself in quotes, anything else in hex.
    private static func show(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte)
            ? "\"\(Character(Unicode.Scalar(byte)))\"" : "0x" + String(byte, radix: 16, uppercase: true)
    }
}
