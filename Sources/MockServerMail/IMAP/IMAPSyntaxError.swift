/// Why the reader refused a command: the text of its `BAD` answer, naming the culprit or the
/// limit passed.
package enum IMAPSyntaxError: Error, Sendable, Hashable {
    /// The line has no valid tag (answered `* BAD`).
    case missingTag
    /// The tag is not followed by a command name.
    case missingCommandName
    /// A byte that cannot start or continue a value here, and its offset in the line.
    case unexpectedByte(UInt8, offset: Int)
    /// A quoted string not closed before the line ends.
    case unterminatedQuotedString
    /// A backslash in a quoted string before something other than `"` or `\`.
    case badEscape(UInt8)
    /// A `(` or `[` not closed before the command ends.
    case unclosedList
    /// A `)` or `]` with nothing open.
    case unexpectedClose(UInt8)
    /// A literal marker that is not `{digits}` or `{digits+}` at the end of a line.
    case badLiteralMarker
    /// A `<offset.count>` that is not two 32-bit numbers, the count nonzero.
    case badPartial
    /// The command text (literals not counted) passed ``IMAPReaderLimits/lineLength``.
    case lineTooLong(limit: Int)
    /// A literal announced larger than its limit, or making the command's literals together
    /// larger than it (`size` is then their total; nil: past 64 bits).
    case literalTooLarge(size: UInt64?, limit: UInt64, synchronizing: Bool)
    /// Lists nested deeper than ``IMAPReaderLimits/nestingDepth``.
    case nestedTooDeep(limit: Int)
    /// More literals than ``IMAPReaderLimits/literalCount``.
    case tooManyLiterals(limit: Int)
    /// More values than ``IMAPReaderLimits/argumentCount``.
    case tooManyArguments(limit: Int)

    /// The text of the `BAD` answer.
    package var text: String {
        switch self {
        case .missingTag: return "Missing or invalid tag."
        case .missingCommandName: return "Missing command name."
        case .unexpectedByte(let byte, let offset):
            return "Unexpected byte 0x\(String(byte, radix: 16)) at offset \(offset)."
        case .unterminatedQuotedString: return "Quoted string not closed before the end of the line."
        case .badEscape(let byte): return "Invalid escape \\0x\(String(byte, radix: 16)) in a quoted string."
        case .unclosedList: return "Parenthesis or bracket not closed."
        case .unexpectedClose(let byte): return "Unexpected '\(Character(Unicode.Scalar(byte)))'."
        case .badLiteralMarker: return "Invalid literal: expected {size} or {size+} at the end of a line."
        case .badPartial: return "Invalid <offset.count> partial range."
        case .lineTooLong(let limit): return "Command line too long (limit \(limit) octets)."
        case .literalTooLarge(let size, let limit, _):
            return "Literal of \(size.map(String.init) ?? "more than 2^64") octets too large (limit \(limit) octets)."
        case .nestedTooDeep(let limit): return "Lists nested too deep (limit \(limit))."
        case .tooManyLiterals(let limit): return "Too many literals (limit \(limit))."
        case .tooManyArguments(let limit): return "Too many arguments (limit \(limit))."
        }
    }
}
